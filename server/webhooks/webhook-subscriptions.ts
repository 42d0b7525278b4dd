import "server-only";
import { monotonicFactory } from "ulid";
import type { Db, Tx } from "../db/client";
import { EVENT_TYPES, type EventType } from "@/lib/validations/events";
import { eventIdFloor } from "@/lib/ids";
import { checkWebhookTarget, WebhookTargetError } from "./webhook-target";
import { webhookHealth } from "./webhook-health";
import type { WebhookSubscriptionInfo } from "@/lib/webhooks/webhook-subscription";
import { isWebhookFormat, WEBHOOK_FORMATS, type WebhookFormat } from "@/lib/webhooks/webhook-format";
import { generateWebhookSecret, sealWebhookKey } from "./webhook-secret";

// A tenant's webhook subscriptions, managed by operators with
// `npm run admin -- webhooks`. The signing secret is returned once, by create and
// rotate-secret; nothing else ever selects it.

export type { WebhookSubscriptionInfo };

export const PUBLIC_COLUMNS = {
  id: true,
  tenantId: true,
  url: true,
  format: true,
  eventTypes: true,
  createdAt: true,
  consecutiveFailures: true,
  failingSince: true,
  lastAttemptAt: true,
  lastSuccessAt: true,
  lastError: true,
  previousSecretExpiresAt: true,
} as const;

export class WebhookSubscriptionError extends Error {
  override name = "WebhookSubscriptionError";
}

const nextUlid = monotonicFactory();
const newSubscriptionId = () => `whsub_${nextUlid().toLowerCase()}`;

type Row = Omit<WebhookSubscriptionInfo, "health">;
export const withHealth = (row: Row): WebhookSubscriptionInfo => ({ ...row, health: webhookHealth(row) });

/** http(s) only, no user:password (it would show in every listing), at most 2048 characters. */
export function checkWebhookUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookSubscriptionError(`not a URL: ${text}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new WebhookSubscriptionError("the URL must be http:// or https://");
  if (url.username || url.password) throw new WebhookSubscriptionError("the URL must not carry a user name or password");
  if (text.length > 2048) throw new WebhookSubscriptionError("the URL must be at most 2048 characters");
  return url.toString();
}

export function checkWebhookFormat(format: string): WebhookFormat {
  if (!isWebhookFormat(format)) throw new WebhookSubscriptionError(`unknown format ${format}; known: ${WEBHOOK_FORMATS.join(", ")}`);
  return format;
}

export function checkEventTypes(types: readonly string[]): EventType[] {
  const unknown = types.filter((type) => !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length) {
    throw new WebhookSubscriptionError(`unknown event type ${unknown.join(", ")}; known: ${EVENT_TYPES.join(", ")}`);
  }
  return [...new Set(types as EventType[])];
}

/** Subscribes `url` to the tenant's events from now on; returns the secret once. */
export async function createWebhookSubscription(input: {
  db: Db | Tx;
  tenantId: string;
  url: string;
  /** empty or omitted: every type */
  eventTypes?: readonly string[];
  /** default standard; slack, teams, google_chat, mattermost: that service's incoming-webhook message */
  format?: string;
  now: Date;
  /** default: BC_WEBHOOK_ALLOW_PRIVATE */
  allowPrivate?: boolean;
}): Promise<WebhookSubscriptionInfo & { secret: string }> {
  const { db, tenantId, now } = input;
  const url = checkWebhookUrl(input.url);
  await checkWebhookTarget(new URL(url), input.allowPrivate).catch((error: unknown) => {
    throw error instanceof WebhookTargetError ? new WebhookSubscriptionError(error.message) : error;
  });
  const eventTypes = checkEventTypes(input.eventTypes ?? []);
  const format = checkWebhookFormat(input.format ?? "standard");
  const tenant = await db.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
  if (!tenant) throw new WebhookSubscriptionError(`tenant ${tenantId} not found`);
  const id = newSubscriptionId();
  const { key, secret } = generateWebhookSecret();
  const row = await db.webhookSubscription.create({
    data: {
      id,
      tenantId,
      url,
      format,
      eventTypes,
      secretEncrypted: await sealWebhookKey(id, key),
      scanAfter: eventIdFloor(now.getTime()),
      createdAt: now,
    },
    select: PUBLIC_COLUMNS,
  });
  return { ...withHealth(row), secret };
}

export async function listWebhookSubscriptions(input: { db: Db; tenantIds: readonly string[] }): Promise<WebhookSubscriptionInfo[]> {
  const rows = await input.db.webhookSubscription.findMany({
    where: { tenantId: { in: [...input.tenantIds] } },
    select: PUBLIC_COLUMNS,
    orderBy: [{ tenantId: "asc" }, { id: "asc" }],
  });
  return rows.map(withHealth);
}

/**
 * Deletes a subscription with its pending and past deliveries: the deliveries
 * first, then the subscription, in one transaction. That is the order a worker
 * recording an attempt locks them in (record-attempt.ts: the delivery, then the
 * subscription's health). Deleting the subscription first, its deliveries by
 * cascade, took the two the other way round and deadlocked with such a worker
 * (seen in CI: `admin webhooks delete` failed); now it waits for the worker.
 */
export async function deleteWebhookSubscription(input: { db: Db | Tx; tenantId: string; id: string }): Promise<void> {
  const { tenantId, id } = input;
  const remove = async (tx: Tx) => {
    await tx.webhookDelivery.deleteMany({ where: { subscriptionId: id, subscription: { tenantId } } });
    const { count } = await tx.webhookSubscription.deleteMany({ where: { id, tenantId } });
    if (count === 0) throw new WebhookSubscriptionError(`webhook ${id} not found in tenant ${tenantId}`);
  };
  await ("$transaction" in input.db ? input.db.$transaction(remove) : remove(input.db));
}

/**
 * A new secret, returned once. The previous one keeps signing (a second
 * signature in the header) for `graceSeconds`, so receivers can switch over.
 */
export async function rotateWebhookSecret(input: {
  db: Db | Tx;
  tenantId: string;
  id: string;
  graceSeconds: number;
  now: Date;
}): Promise<WebhookSubscriptionInfo & { secret: string }> {
  const { db, tenantId, id, now } = input;
  const current = await db.webhookSubscription.findFirst({ where: { id, tenantId }, select: { secretEncrypted: true } });
  if (!current) throw new WebhookSubscriptionError(`webhook ${id} not found in tenant ${tenantId}`);
  const { key, secret } = generateWebhookSecret();
  const graceful = input.graceSeconds > 0;
  const row = await db.webhookSubscription.update({
    where: { id },
    data: {
      secretEncrypted: await sealWebhookKey(id, key),
      previousSecretEncrypted: graceful ? current.secretEncrypted : null,
      previousSecretExpiresAt: graceful ? new Date(now.getTime() + input.graceSeconds * 1000) : null,
    },
    select: PUBLIC_COLUMNS,
  });
  return { ...withHealth(row), secret };
}
