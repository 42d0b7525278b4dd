// One mail in the delivery log (issue #39), as the console and the admin CLI
// show it: what it was about, where it went, and how its delivery went.

export const DELIVERY_STATUSES = ["pending", "sent", "dead", "not_configured"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const DELIVERY_KINDS = ["waiting", "outcome", "digest", "escalation"] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

export interface DeliveryLogEntry {
  id: string;
  kind: DeliveryKind;
  tenantId: string;
  poolId: string | null;
  email: string;
  /** the request it is about; null for a digest */
  requestId: string | null;
  /** a digest: how many requests it lists */
  digestRequests: number;
  status: DeliveryStatus;
  attempts: number;
  createdAt: Date;
  /** pending: when it is due (a digest: the end of its window) */
  nextAttemptAt: Date;
  lastAttemptAt: Date | null;
  sentAt: Date | null;
  lastError: string | null;
}

/** A digest's "about": how many requests it lists. */
export const digestRequestsText = (count: number) => `${count} request${count === 1 ? "" : "s"}`;

/** What a mail was, in words, for a table's first column. */
export const DELIVERY_KIND_LABELS: Record<DeliveryKind, string> = {
  waiting: "A request waits",
  outcome: "A request you approved was decided",
  digest: "Digest",
  escalation: "Escalation",
};

export const DELIVERY_STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: "pending",
  sent: "sent",
  dead: "gave up",
  not_configured: "not sent (no mail server)",
};
