import { UsageError } from "../../shared/run-cli";
import { nounUsage, required, text, type AdminContext, type AdminNoun, type OptionValues } from "./admin-command";
import { at, printLines, printOutcome } from "./output";
import { recordAdminChange } from "@/server/admin/record-admin-change";
import type { Tx } from "@/server/db/client";
import { setWebhookFormat } from "@/server/webhooks/set-webhook-format";
import { WEBHOOK_FORMATS } from "@/lib/webhooks/webhook-format";
import {
  createWebhookSubscription,
  deleteWebhookSubscription,
  listWebhookSubscriptions,
  rotateWebhookSecret,
  type WebhookSubscriptionInfo,
} from "@/server/webhooks/webhook-subscriptions";

// A tenant's webhook subscriptions: create and rotate-secret print the signing
// secret once. Each change is recorded as `compute.admin.changed` (noun
// `webhook`), in the same transaction; the event never carries the secret.

const describe = (subscription: WebhookSubscriptionInfo) =>
  [
    subscription.id,
    subscription.url,
    `format ${subscription.format}`,
    `types ${subscription.eventTypes.length ? subscription.eventTypes.join(",") : "all"}`,
    subscription.health.kind === "failing" ? `FAILING since ${subscription.health.since.toISOString()}` : "healthy",
    `last attempt ${at(subscription.lastAttemptAt) ?? "never"}`,
    `${subscription.consecutiveFailures} consecutive failures${subscription.lastError ? ` (${subscription.lastError})` : ""}`,
  ].join("  ");

/** "a,b" → ["a", "b"]; a short type name (".approved" or "approved") means security.join-request.<name>; a dotted one is taken whole. */
const parseTypes = (types: string | undefined) =>
  (types ?? "")
    .split(",")
    .map((type) => type.trim().replace(/^\./, ""))
    .filter(Boolean)
    .map((type) => (type.includes(".") ? type : `security.join-request.${type}`));

/** Runs a change and records it, in one transaction. */
function change<T extends { id: string }>(context: AdminContext, tenantId: string, verb: string, make: (tx: Tx) => Promise<T>) {
  return context.db.$transaction(async (tx) => {
    const made = await make(tx);
    await recordAdminChange(tx, { actor: context.actor, noun: "webhook", verb, tenantId, id: made.id, now: context.now });
    return made;
  });
}

function graceSeconds(values: OptionValues): number {
  const hours = Number(text(values, "grace-hours") ?? 24);
  if (!(Number.isFinite(hours) && hours >= 0 && hours <= 720)) throw new UsageError("--grace-hours must be 0 to 720", nounUsage(webhooks));
  return Math.round(hours * 3600);
}

export const webhooks: AdminNoun = {
  name: "webhooks",
  summary: `A tenant's webhook subscriptions; the signing secret is shown once, by create and rotate-secret.
Event types (default: all): security.join-request.created, .approved, .rejected, .consumed, .expired;
  compute.admin.changed, compute.discovery.changed, compute.tpm-allow-list.changed, compute.tpm-trust-store.changed
Formats (default standard, the signed event JSON): ${WEBHOOK_FORMATS.join(", ")}; the others post that chat
  service's incoming-webhook message, for people, with a link to the request or node page`,
  verbs: {
    create: {
      synopsis: `--tenant <tenantId> --url <https://…> [--types <type,type,…>] [--format <${WEBHOOK_FORMATS.join("|")}>]`,
      options: { tenant: { type: "string" }, url: { type: "string" }, types: { type: "string" }, format: { type: "string" } },
      async run(context, values) {
        const tenantId = required(values, "tenant", webhooks);
        const url = required(values, "url", webhooks);
        const eventTypes = parseTypes(text(values, "types"));
        const format = text(values, "format");
        const created = await change(context, tenantId, "create", (db) =>
          createWebhookSubscription({ db, tenantId, url, eventTypes, format, now: context.now }),
        );
        const { secret, ...webhook } = created;
        printOutcome(
          context,
          "created",
          describe(webhook),
          { webhook, secret },
          `\nSigning secret (shown once, store it now):\n  ${secret}`,
        );
      },
    },
    list: {
      synopsis: "--tenant <tenantId>",
      options: { tenant: { type: "string" } },
      async run(context, values) {
        const tenantId = required(values, "tenant", webhooks);
        const rows = await listWebhookSubscriptions({ db: context.db, tenantIds: [tenantId] });
        printLines(context, rows, describe, `no webhooks for ${tenantId}`);
      },
    },
    delete: {
      synopsis: "--tenant <tenantId> --id <whsub_…>",
      options: { tenant: { type: "string" }, id: { type: "string" } },
      async run(context, values) {
        const tenantId = required(values, "tenant", webhooks);
        const id = required(values, "id", webhooks);
        await change(context, tenantId, "delete", async (db) => (await deleteWebhookSubscription({ db, tenantId, id }), { id }));
        printOutcome(context, "changed", `webhook ${id} deleted with its deliveries`, { id });
      },
    },
    "rotate-secret": {
      synopsis: "--tenant <tenantId> --id <whsub_…> [--grace-hours <hours, default 24>]",
      options: { tenant: { type: "string" }, id: { type: "string" }, "grace-hours": { type: "string" } },
      async run(context, values) {
        const tenantId = required(values, "tenant", webhooks);
        const id = required(values, "id", webhooks);
        const grace = graceSeconds(values);
        const rotated = await change(context, tenantId, "rotate-secret", (db) =>
          rotateWebhookSecret({ db, tenantId, id, graceSeconds: grace, now: context.now }),
        );
        const { secret, ...webhook } = rotated;
        const until = webhook.previousSecretExpiresAt ? `until ${webhook.previousSecretExpiresAt.toISOString()}` : "no longer";
        const shown = `\nNew signing secret (shown once, store it now; the previous one also signs ${until}):\n  ${secret}`;
        printOutcome(context, "changed", describe(webhook), { webhook, secret }, shown);
      },
    },
    "set-format": {
      synopsis: `--tenant <tenantId> --id <whsub_…> --format <${WEBHOOK_FORMATS.join("|")}>`,
      options: { tenant: { type: "string" }, id: { type: "string" }, format: { type: "string" } },
      async run(context, values) {
        const tenantId = required(values, "tenant", webhooks);
        const id = required(values, "id", webhooks);
        const format = required(values, "format", webhooks);
        const changed = await change(context, tenantId, "set-format", (db) => setWebhookFormat({ db, tenantId, id, format }));
        printOutcome(context, "changed", describe(changed), { webhook: changed });
      },
    },
  },
};
