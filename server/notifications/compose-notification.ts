import "server-only";
import type { Db } from "../db/client";
import { digestKeyWindow } from "@/lib/notifications/delivery-key";
import { digestMessage } from "@/lib/notifications/digest-message";
import { escalationMessage } from "@/lib/notifications/escalation-message";
import type { MailMessage } from "@/lib/notifications/mail-message";
import { outcomeMessage, type Outcome } from "@/lib/notifications/outcome-message";
import { waitingMessage } from "@/lib/notifications/waiting-message";
import type { ClaimedNotification } from "./claim-notifications";
import { loadRequestSummaries } from "./load-request-summaries";

const OUTCOMES: Record<string, Outcome> = {
  "security.join-request.approved": "approved",
  "security.join-request.rejected": "rejected",
  "security.join-request.expired": "expired",
};

/**
 * The mail a claimed notification sends, written from the request as it is
 * now (a waiting mail shows the approvals made since the event). Null when
 * there is nothing left to say: its request (or each of a digest's) is gone.
 */
export async function composeNotification(db: Db, notification: ClaimedNotification, now: Date): Promise<MailMessage | null> {
  if (notification.kind === "digest") {
    const items = await db.notificationDigestItem.findMany({ where: { deliveryId: notification.id }, select: { requestId: true } });
    const requests = await loadRequestSummaries(
      db,
      items.map((item) => item.requestId),
      now,
    );
    const window = digestKeyWindow(notification.deliveryKey);
    return requests.size && window ? digestMessage([...requests.values()], window, now) : null;
  }
  const request = notification.requestId
    ? (await loadRequestSummaries(db, [notification.requestId], now)).get(notification.requestId)
    : undefined;
  if (!request) return null;
  if (notification.kind === "waiting") return waitingMessage(request, now);
  if (notification.kind === "escalation") return escalationMessage(request, now);
  const event = notification.eventId
    ? await db.event.findUnique({ where: { id: notification.eventId }, select: { type: true, data: true } })
    : null;
  const outcome = OUTCOMES[event?.type ?? ""] ?? (request.state as Outcome);
  const reason = (event?.data as { reason?: unknown } | null)?.reason;
  return outcomeMessage(request, {
    outcome,
    decidedBy: outcome === "expired" ? null : request.decidedBy,
    reason: typeof reason === "string" ? reason : request.reason,
  });
}
