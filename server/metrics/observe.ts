import "server-only";
import { ApiError } from "../api/errors";
import { databaseCondition } from "../api/database-condition";
import type { JoinRequestReason } from "@/lib/join-requests/join-request-json";
import { processMetrics } from "./process-metrics";

// What the code being measured calls: one line at each place, the metric's
// labels decided here.

/** A published method's answer; `method` is "unknown" for a name the registry lacks (no label per stray URL). */
export function observeMethodCall(method: string, status: number, seconds: number): void {
  const metrics = processMetrics();
  metrics.methodCalls.inc({ method, code: String(status) });
  metrics.methodDuration.observe({ method }, seconds);
}

type JoinOutcome = { status: "admitted" } | { status: "challenge" } | { status: "pending"; reasons: JoinRequestReason[] };

/** Runs the join and counts how it ended: its status, or refused with the code the caller will see. */
export async function observeJoin<T extends JoinOutcome>(join: () => Promise<T>): Promise<T> {
  const metrics = processMetrics();
  try {
    const outcome = await join();
    metrics.joins.inc({ result: outcome.status, code: "" });
    if (outcome.status === "pending") for (const reason of outcome.reasons) metrics.joinDeferrals.inc({ reason });
    return outcome;
  } catch (error) {
    const code = error instanceof ApiError ? error.code : databaseCondition(error) ? "UNAVAILABLE" : "INTERNAL";
    metrics.joins.inc({ result: "refused", code });
    throw error;
  }
}

export function observeWebhookAttempt(result: "delivered" | "retry" | "dead" | "gone"): void {
  processMetrics().webhookDeliveries.inc({ result });
}

export function observeNotificationAttempt(result: "sent" | "retry" | "dead" | "not_configured" | "gone"): void {
  processMetrics().notifications.inc({ result });
}

export function observeRetention(result: {
  marked: number;
  deletedRequests: number;
  deletedEvents: number;
  deletedTpmChallenges: number;
  deletedSnapshots: number;
  deletedRuleHours?: number;
  deletedNotifications?: number;
}): void {
  const metrics = processMetrics();
  metrics.retentionMarked.inc(result.marked);
  metrics.retentionDeleted.inc({ kind: "requests" }, result.deletedRequests);
  metrics.retentionDeleted.inc({ kind: "events" }, result.deletedEvents);
  metrics.retentionDeleted.inc({ kind: "tpm_challenges" }, result.deletedTpmChallenges);
  metrics.retentionDeleted.inc({ kind: "inventory_snapshots" }, result.deletedSnapshots);
  metrics.retentionDeleted.inc({ kind: "approval_rule_hours" }, result.deletedRuleHours ?? 0);
  metrics.retentionDeleted.inc({ kind: "notifications" }, result.deletedNotifications ?? 0);
}
