import "server-only";
import type { Db, Tx } from "../db/client";
import type { WebhookSubscriptionInfo } from "@/lib/webhooks/webhook-subscription";
import { checkWebhookFormat, PUBLIC_COLUMNS, WebhookSubscriptionError, withHealth } from "./webhook-subscriptions";

/**
 * Changes what a subscription receives: the signed event JSON or a chat
 * service's message. Deliveries not yet sent go out in the new format; the
 * URL and secret stay.
 */
export async function setWebhookFormat(input: {
  db: Db | Tx;
  tenantId: string;
  id: string;
  format: string;
}): Promise<WebhookSubscriptionInfo> {
  const format = checkWebhookFormat(input.format);
  const { count } = await input.db.webhookSubscription.updateMany({ where: { id: input.id, tenantId: input.tenantId }, data: { format } });
  if (count === 0) throw new WebhookSubscriptionError(`webhook ${input.id} not found in tenant ${input.tenantId}`);
  return withHealth(await input.db.webhookSubscription.findUniqueOrThrow({ where: { id: input.id }, select: PUBLIC_COLUMNS }));
}
