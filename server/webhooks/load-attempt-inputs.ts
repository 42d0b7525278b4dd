import "server-only";
import type { Db } from "../db/client";
import type { ClaimedDelivery } from "./claim-deliveries";
import type { WebhookEventJson } from "./send-webhook";
import { openWebhookKey } from "./webhook-secret";

export interface AttemptInput {
  url: string;
  /** the current secret's key, and the previous one's while it still signs */
  keys: Buffer[];
  event: WebhookEventJson;
  /** set when the keys cannot be had (BC_CA_KEY_ENCRYPTION_KEY changed): the attempt fails with it, unsent */
  keyError?: string;
}

/**
 * What a batch of claimed deliveries needs to be sent: each one's URL, signing
 * keys and event. A delivery whose subscription or event went meanwhile is
 * left out (its row went with it).
 */
export async function loadAttemptInputs(db: Db, claimed: readonly ClaimedDelivery[], now: Date): Promise<Map<bigint, AttemptInput>> {
  const [subscriptions, events] = await Promise.all([
    db.webhookSubscription.findMany({
      where: { id: { in: [...new Set(claimed.map((delivery) => delivery.subscriptionId))] } },
      select: { id: true, url: true, secretEncrypted: true, previousSecretEncrypted: true, previousSecretExpiresAt: true },
    }),
    db.event.findMany({
      where: { id: { in: claimed.map((delivery) => delivery.eventId) } },
      select: { id: true, type: true, occurredAt: true, tenantId: true, data: true },
    }),
  ]);
  const keysById = new Map<string, { url: string; keys: Buffer[]; keyError?: string }>();
  for (const subscription of subscriptions) {
    try {
      const keys = [await openWebhookKey(subscription.id, subscription.secretEncrypted)];
      const previous = subscription.previousSecretEncrypted;
      if (previous && subscription.previousSecretExpiresAt && subscription.previousSecretExpiresAt > now) {
        keys.push(await openWebhookKey(subscription.id, previous));
      }
      keysById.set(subscription.id, { url: subscription.url, keys });
    } catch (error) {
      keysById.set(subscription.id, { url: subscription.url, keys: [], keyError: error instanceof Error ? error.message : String(error) });
    }
  }
  // Deliveries are made for events of the subscription's tenant only, so tenantId is set.
  const eventsById = new Map(
    events.map((event) => [event.id, { ...event, tenantId: event.tenantId!, occurredAt: event.occurredAt.toISOString() }]),
  );
  const inputs = new Map<bigint, AttemptInput>();
  for (const delivery of claimed) {
    const target = keysById.get(delivery.subscriptionId);
    const event = eventsById.get(delivery.eventId);
    if (target && event) inputs.set(delivery.id, { ...target, event });
  }
  return inputs;
}
