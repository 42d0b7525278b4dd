import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";

/** What a row's button or key asks the queue to open: its Approve or Reject dialog. */
export type RowAction = { kind: "approve" | "reject"; request: JoinRequestJson };
