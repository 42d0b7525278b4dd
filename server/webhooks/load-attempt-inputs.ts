import "server-only";
import type { Db } from "../db/client";
import type { ChatContext } from "@/lib/webhooks/chat/chat-message";
import type { WebhookFormat } from "@/lib/webhooks/webhook-format";
import type { ClaimedDelivery } from "./claim-deliveries";
import type { WebhookEventJson } from "./send-webhook";
import { loadChatContexts } from "./load-chat-contexts";
import { openWebhookKey } from "./webhook-secret";

export interface AttemptInput {
  url: string;
  /** the body's shape: the event's JSON, or a chat service's message */
  format: WebhookFormat;
  /** for a chat format: the machine and the pool's name, which the event does not carry */
  chat?: ChatContext;
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
      select: { id: true, url: true, format: true, secretEncrypted: true, previousSecretEncrypted: true, previousSecretExpiresAt: true },
    }),
    db.event.findMany({
      where: { id: { in: claimed.map((delivery) => delivery.eventId) } },
      select: { id: true, type: true, occurredAt: true, tenantId: true, data: true, poolId: true, requestId: true },
    }),
  ]);
  const keysById = new Map<string, { url: string; format: WebhookFormat; keys: Buffer[]; keyError?: string }>();
  for (const subscription of subscriptions) {
    try {
      const keys = [await openWebhookKey(subscription.id, subscription.secretEncrypted)];
      const previous = subscription.previousSecretEncrypted;
      if (previous && subscription.previousSecretExpiresAt && subscription.previousSecretExpiresAt > now) {
        keys.push(await openWebhookKey(subscription.id, previous));
      }
      keysById.set(subscription.id, { url: subscription.url, format: subscription.format, keys });
    } catch (error) {
      keysById.set(subscription.id, {
        url: subscription.url,
        format: subscription.format,
        keys: [],
        keyError: error instanceof Error ? error.message : String(error),
      });
    }
  }
  // Deliveries are made for events of the subscription's tenant only, so tenantId is set.
  const eventsById = new Map(
    events.map(({ poolId: _poolId, requestId: _requestId, ...event }) => [
      event.id,
      { ...event, tenantId: event.tenantId!, occurredAt: event.occurredAt.toISOString() },
    ]),
  );
  // Only chat subscriptions read the machine and the pool's name.
  const chatSubscriptions = new Set(subscriptions.filter((each) => each.format !== "standard").map((each) => each.id));
  const chatEventIds = new Set(claimed.filter((each) => chatSubscriptions.has(each.subscriptionId)).map((each) => each.eventId));
  const chatEvents = events.filter((event) => chatEventIds.has(event.id));
  const chatContexts = chatEvents.length ? await loadChatContexts(db, chatEvents) : new Map<string, ChatContext>();
  const inputs = new Map<bigint, AttemptInput>();
  for (const delivery of claimed) {
    const target = keysById.get(delivery.subscriptionId);
    const event = eventsById.get(delivery.eventId);
    if (target && event) inputs.set(delivery.id, { ...target, event, chat: chatContexts.get(event.id) });
  }
  return inputs;
}
