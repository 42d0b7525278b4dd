// npm run webhooks -- create|list|delete|rotate-secret --tenant acme [--url …] [--types …] [--id whsub_…]
// A tenant's webhook subscriptions: create and rotate-secret print the signing secret once.
import { parseArgs } from "node:util";
import { runCli, UsageError } from "./run-cli";
import { getDb } from "@/server/db/client";
import {
  createWebhookSubscription,
  deleteWebhookSubscription,
  listWebhookSubscriptions,
  rotateWebhookSecret,
  WebhookSubscriptionError,
  type WebhookSubscriptionInfo,
} from "@/server/webhooks/webhook-subscriptions";

const USAGE = `Usage:
  npm run webhooks -- create        --tenant <tenantId> --url <https://…> [--types <type,type,…>]
  npm run webhooks -- list          --tenant <tenantId>
  npm run webhooks -- delete        --tenant <tenantId> --id <whsub_…>
  npm run webhooks -- rotate-secret --tenant <tenantId> --id <whsub_…> [--grace-hours <hours, default 24>]
Event types (default: all): security.join-request.created, .approved, .rejected, .consumed, .expired;
  compute.admin.changed, compute.discovery.changed, compute.tpm-allow-list.changed`;

const at = (date: Date | null) => (date ? date.toISOString() : "never");

const describe = (subscription: WebhookSubscriptionInfo) =>
  [
    subscription.id,
    subscription.url,
    `types ${subscription.eventTypes.length ? subscription.eventTypes.join(",") : "all"}`,
    subscription.health.kind === "failing" ? `FAILING since ${subscription.health.since.toISOString()}` : "healthy",
    `last attempt ${at(subscription.lastAttemptAt)}`,
    `${subscription.consecutiveFailures} consecutive failures${subscription.lastError ? ` (${subscription.lastError})` : ""}`,
  ].join("  ");

/** "a,b" → ["a", "b"]; a short type name (".approved" or "approved") means security.join-request.<name>; a dotted one is taken whole. */
const parseTypes = (text: string | undefined) =>
  (text ?? "")
    .split(",")
    .map((type) => type.trim())
    .filter(Boolean)
    .map((type) => (type.replace(/^\./, "").includes(".") ? type : `security.join-request.${type.replace(/^\./, "")}`));

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      tenant: { type: "string" },
      url: { type: "string" },
      types: { type: "string" },
      id: { type: "string" },
      "grace-hours": { type: "string" },
    },
  });
  const [command] = positionals;
  const { tenant: tenantId } = values;
  if (!command || !["create", "list", "delete", "rotate-secret"].includes(command) || !tenantId) throw new UsageError();

  const db = await getDb();
  try {
    const now = new Date();
    if (command === "create") {
      if (!values.url) throw new UsageError("create needs --url");
      const created = await createWebhookSubscription({ db, tenantId, url: values.url, eventTypes: parseTypes(values.types), now });
      console.log(describe(created));
      console.log(`\nSigning secret (shown once, store it now):\n  ${created.secret}`);
    } else if (command === "list") {
      const subscriptions = await listWebhookSubscriptions({ db, tenantIds: [tenantId] });
      console.log(subscriptions.length ? subscriptions.map(describe).join("\n") : `no webhooks for ${tenantId}`);
    } else {
      if (!values.id) throw new UsageError(`${command} needs --id <whsub_…>`);
      if (command === "delete") {
        await deleteWebhookSubscription({ db, tenantId, id: values.id });
        console.log(`deleted ${values.id} with its deliveries`);
      } else {
        const hours = values["grace-hours"] === undefined ? 24 : Number(values["grace-hours"]);
        if (!(Number.isFinite(hours) && hours >= 0 && hours <= 720)) throw new UsageError("--grace-hours must be 0 to 720");
        const rotated = await rotateWebhookSecret({ db, tenantId, id: values.id, graceSeconds: Math.round(hours * 3600), now });
        console.log(describe(rotated));
        const until = rotated.previousSecretExpiresAt ? `until ${rotated.previousSecretExpiresAt.toISOString()}` : "no longer";
        console.log(`\nNew signing secret (shown once, store it now; the previous one also signs ${until}):\n  ${rotated.secret}`);
      }
    }
  } finally {
    await db.$disconnect();
  }
}

runCli("webhooks", USAGE, main, { isInputError: (error) => error instanceof WebhookSubscriptionError });
