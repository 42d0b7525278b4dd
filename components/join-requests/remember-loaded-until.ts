"use client";

// Apart from queue-url-state.ts because only "load more" (in the lazily
// loaded results) needs it: it stays out of the queue's first load.

/**
 * Records in the URL (?until=) how far "Load more" went, without a
 * navigation: Next.js keeps useSearchParams in step with
 * history.replaceState, and a replace (not a push) keeps Back leaving the
 * queue rather than un-loading pages.
 */
export function rememberLoadedUntil(lastRequestId: string): void {
  const url = new URL(window.location.href);
  url.searchParams.set("until", lastRequestId);
  window.history.replaceState(null, "", url);
}
