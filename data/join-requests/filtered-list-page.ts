import type { StateFilter } from "@/lib/validations/join-requests";
import { isRulePrincipal } from "@/lib/approval-rules/rule-principal";
import { awaitsApprovalFrom, fillFilteredPage, type RequestPage } from "@/lib/join-requests/awaiting-approval-page";

/** "Needs my approval" and "Decided by a rule" read the list in pages this big, at most this many for one page of the view (then "Load more"). */
const FILTERED_READ_SIZE = 200;
const FILTERED_MAX_READS = 3;

/**
 * One page of the queue under SPEC H1's "Needs my approval" (requests
 * `awaitingApprovalFrom` has not approved) or SPEC H2's "Decided by a rule",
 * filled console-side from the list (awaiting-approval-page.ts says why). The
 * queue's query imports this the first time either filter is on: most views
 * have neither, and the queue's first load goes without it.
 */
export function readFilteredPage(options: {
  cursor: string | undefined;
  pageSize: number;
  state: StateFilter;
  awaitingApprovalFrom: string | null;
  decidedByRule: boolean;
  read: (cursor: string | undefined, state: StateFilter, limit: number) => Promise<RequestPage>;
}): Promise<RequestPage> {
  const { cursor, pageSize, state, awaitingApprovalFrom, read } = options;
  const fill = (filter: StateFilter, keep: Parameters<typeof fillFilteredPage>[0]["keep"]) =>
    fillFilteredPage({ cursor, pageSize, maxReads: FILTERED_MAX_READS, read: (after) => read(after, filter, FILTERED_READ_SIZE), keep });
  if (options.decidedByRule) {
    // a pending request has no decision yet: under pending the filter holds none
    if (state === "pending") return Promise.resolve({ joinRequests: [] });
    return fill(state, (request) => isRulePrincipal(request.decidedBy));
  }
  // only pending requests can await an approval: other state filters hold none
  if (awaitingApprovalFrom === null || (state !== "pending" && state !== "all")) return Promise.resolve({ joinRequests: [] });
  return fill("pending", (request) => awaitsApprovalFrom(request, awaitingApprovalFrom));
}
