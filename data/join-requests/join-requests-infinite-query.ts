"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { listJoinRequests } from "@/lib/api-client/join-requests";
import type { StateFilter } from "@/lib/validations/join-requests";
import { joinRequestKeys } from "./keys";

export const QUEUE_PAGE_SIZE = 50;
type ListJoinRequestsPage = Awaited<ReturnType<typeof listJoinRequests>>;
/** New deferrals show up without a reload; paused while the tab is hidden. */
export const QUEUE_REFETCH_INTERVAL_MS = 5_000;

interface Variables {
  tenantId: string;
  poolId: string;
  state: StateFilter;
  /** SPEC H1's "needs my approval": this principal's id, to list only pending requests it has not approved; null: no such filter */
  awaitingApprovalFrom?: string | null;
  /** SPEC H2's "decided by a rule": only requests whose decidedBy is a rule (read through the list's pages like the above) */
  decidedByRule?: boolean;
  /** the page the view starts after (from the URL), null: from the oldest */
  cursor: string | null;
  /** the last row "load more" brought in (from the URL): pages are shown up to it; null: one page */
  until: string | null;
}

/**
 * A pool's queue, page after page ("load more" follows nextCursor), showing
 * the pages the URL's `until` asks for. The cache may hold more pages than
 * the view shows (a filter link back to this view, without `until`, finds
 * them cached): the view is cut by `until`, not by what happens to be cached.
 */
export function useJoinRequestsInfiniteQuery(variables: Variables) {
  const { tenantId, poolId, state, awaitingApprovalFrom = null, decidedByRule = false, cursor, until } = variables;
  const query = useInfiniteQuery({
    queryKey: joinRequestKeys.list(tenantId, poolId, state, cursor, awaitingApprovalFrom, decidedByRule),
    queryFn: async ({ pageParam, signal }): Promise<ListJoinRequestsPage> => {
      const read = (after: string | undefined, filter: StateFilter = state, limit = QUEUE_PAGE_SIZE) =>
        listJoinRequests({ tenantId, poolId, state: filter, limit, cursor: after }, signal);
      if (!decidedByRule && awaitingApprovalFrom === null) return read(pageParam);
      const { readFilteredPage } = await import("./filtered-list-page");
      return readFilteredPage({ cursor: pageParam, pageSize: QUEUE_PAGE_SIZE, state, awaitingApprovalFrom, decidedByRule, read });
    },
    initialPageParam: cursor ?? undefined,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
    refetchInterval: QUEUE_REFETCH_INTERVAL_MS,
    refetchIntervalInBackground: false,
  });
  const pages = query.data?.pages ?? [];
  const shown = pagesShown(pages, until);
  const requests = pages.slice(0, shown).flatMap((page) => page.joinRequests);
  // Pages come in id order, so the view holds `until` once its last row's id
  // reaches it; each fetch moves that id on, so this stops. A request decided
  // meanwhile (out of the filter) does not stop it: the id comparison does.
  const short = shown === pages.length && until !== null && (requests.at(-1)?.id ?? until) < until;
  const { hasNextPage, isFetching, isError, fetchNextPage } = query;
  useEffect(() => {
    if (short && hasNextPage && !isFetching && !isError) void fetchNextPage();
  }, [short, hasNextPage, isFetching, isError, fetchNextPage]);
  return { query, requests, shown, hasMore: shown < pages.length || hasNextPage };
}

export type JoinRequestsView = ReturnType<typeof useJoinRequestsInfiniteQuery>;

/** How many of the cached pages the view shows: one without `until`, else up to the first that reaches it. */
function pagesShown(pages: readonly ListJoinRequestsPage[], until: string | null): number {
  if (until === null) return Math.min(pages.length, 1);
  const reaching = pages.findIndex((page) => (page.joinRequests.at(-1)?.id ?? "") >= until);
  return reaching === -1 ? pages.length : reaching + 1;
}
