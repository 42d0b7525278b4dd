import { z } from "zod";
import { parseAdminInput } from "@/server/admin/admin-error";
import { listNotificationDeliveries } from "@/server/notifications/list-notification-deliveries";
import { DELIVERY_STATUSES, digestRequestsText, type DeliveryLogEntry } from "@/lib/notifications/delivery-log";
import { boundedInt, tenantIdField } from "@/lib/validations/fields";
import { required, text, type AdminNoun } from "./admin-command";
import { at, printTable } from "./output";

// Issue #39: the mail delivery log, for the operator asking why a mail did not
// arrive — each mail's status, attempts and the SMTP server's last answer.

const deliveriesArguments = z.strictObject({
  tenantId: tenantIdField,
  status: z.enum(DELIVERY_STATUSES, { error: `must be one of ${DELIVERY_STATUSES.join(", ")}` }).optional(),
  email: z.string().min(1).max(320).optional(),
  limit: boundedInt(1, 200),
  before: z
    .string()
    .regex(/^[1-9][0-9]{0,18}$/, { error: "must be a delivery id (a positive integer)" })
    .transform((id) => BigInt(id))
    .optional(),
});

const about = (entry: DeliveryLogEntry) => (entry.kind === "digest" ? digestRequestsText(entry.digestRequests) : entry.requestId);

export const notifications: AdminNoun = {
  name: "notifications",
  summary: `The mail notifications of a tenant (docs/notifications.md): each mail made, newest first.
Statuses: pending (due, retrying, or a digest whose window is open), sent, dead (gave up), not_configured (BC_SMTP_URL unset).`,
  verbs: {
    deliveries: {
      synopsis: `--tenant <tenantId> [--status ${DELIVERY_STATUSES.join("|")}] [--email <address>] [--limit <1-200>] [--before <deliveryId>]`,
      options: {
        tenant: { type: "string" },
        status: { type: "string" },
        email: { type: "string" },
        limit: { type: "string" },
        before: { type: "string" },
      },
      async run(context, values) {
        const filter = parseAdminInput(deliveriesArguments, {
          tenantId: required(values, "tenant", notifications),
          status: text(values, "status"),
          email: text(values, "email"),
          limit: Number(text(values, "limit") ?? 50),
          before: text(values, "before"),
        });
        const entries = await listNotificationDeliveries(context.db, filter);
        printTable(
          context,
          entries,
          [
            ["ID", (entry) => entry.id],
            ["MADE", (entry) => at(entry.createdAt)],
            ["KIND", (entry) => entry.kind],
            ["TO", (entry) => entry.email],
            ["ABOUT", about],
            ["STATUS", (entry) => entry.status],
            ["ATTEMPTS", (entry) => String(entry.attempts)],
            ["LAST ATTEMPT", (entry) => at(entry.lastAttemptAt)],
            ["LAST ERROR", (entry) => entry.lastError],
          ],
          `no notification deliveries in ${filter.tenantId}${filter.status ? ` with status ${filter.status}` : ""}`,
        );
        const last = entries.at(-1);
        if (!context.json && last && entries.length === filter.limit) context.print(`older: --before ${last.id}`);
      },
    },
  },
};
