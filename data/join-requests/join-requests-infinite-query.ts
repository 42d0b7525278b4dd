"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import { listJoinRequests } from "@/lib/api-client/join-requests";
import type { StateFilter } from "@/lib/validations/join-requests";
import { joinRequestKeys } from "./keys";

export const QUEUE_PAGE_SIZE = 50;
/** New deferrals show up without a reload; paused while the tab is hidden. */
export const QUEUE_REFETCH_INTERVAL_MS = 5_000;

interface Variables {
  tenantId: string;
  poolId: string;
  state: StateFilter;
  /** the page the view starts after (from the URL), null: from the oldest */
  cursor: string | null;
}

/** A pool's queue, page after page ("load more" follows nextCursor). */
export function useJoinRequestsInfiniteQuery({ tenantId, poolId, state, cursor }: Variables) {
  return useInfiniteQuery({
    queryKey: joinRequestKeys.list(tenantId, poolId, state, cursor),
    queryFn: ({ pageParam, signal }) =>
      listJoinRequests({ tenantId, poolId, state, limit: QUEUE_PAGE_SIZE, cursor: pageParam }, signal),
    initialPageParam: cursor ?? undefined,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
    refetchInterval: QUEUE_REFETCH_INTERVAL_MS,
    refetchIntervalInBackground: false,
  });
}
