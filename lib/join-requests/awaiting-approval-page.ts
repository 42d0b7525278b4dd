import type { JoinRequestJson } from "./join-request-json";

// SPEC H1's "needs my approval" in the console. Part A publishes
// joinRequests/list's input table exactly (server/docs/method-docs.test.ts
// holds the reference to it), so the list takes no extra filter: the console
// filters the pages it reads, here. A page of the filtered view is filled
// from as many pages of the list as it takes, and its cursor is the last id
// read, so cursors keep Part A's meaning (ids ascend; everything after it
// follows) and a reload or "Load more" goes on where the view stopped.

/** Pending, and not approved by `me` yet: what `me`'s approval would still count for. */
export function awaitsApprovalFrom(request: Pick<JoinRequestJson, "state" | "approvals">, me: string): boolean {
  return request.state === "pending" && !request.approvals.some((approval) => approval.by === me);
}

export interface RequestPage {
  joinRequests: JoinRequestJson[];
  nextCursor?: string;
}

/**
 * One page of up to `pageSize` requests that `keep`, read from the list after
 * `cursor` page by page. It stops once the page is full, the list ends, or
 * `maxReads` pages were read and it holds at least one request (so an empty
 * page always means the list has nothing more to keep). `nextCursor` is
 * the last id it read whenever the list goes on after it.
 */
export async function fillFilteredPage(options: {
  cursor: string | undefined;
  pageSize: number;
  maxReads: number;
  read: (cursor: string | undefined) => Promise<RequestPage>;
  keep: (request: JoinRequestJson) => boolean;
}): Promise<RequestPage> {
  const { pageSize, maxReads, read, keep } = options;
  const kept: JoinRequestJson[] = [];
  let cursor = options.cursor;
  for (let reads = 1; ; reads++) {
    const page = await read(cursor);
    for (const [index, request] of page.joinRequests.entries()) {
      if (!keep(request)) continue;
      kept.push(request);
      if (kept.length === pageSize) {
        const more = index < page.joinRequests.length - 1 || page.nextCursor !== undefined;
        return more ? { joinRequests: kept, nextCursor: request.id } : { joinRequests: kept };
      }
    }
    if (page.nextCursor === undefined) return { joinRequests: kept };
    cursor = page.nextCursor;
    if (reads >= maxReads && kept.length > 0) return { joinRequests: kept, nextCursor: cursor };
  }
}
