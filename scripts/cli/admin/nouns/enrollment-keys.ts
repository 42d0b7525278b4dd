import { UsageError } from "../../shared/run-cli";
import { nounUsage, required, text, type AdminContext, type AdminNoun, type OptionValues } from "./admin-command";
import { printLines, printOutcome } from "./output";
import { recordAdminChange } from "@/server/admin/record-admin-change";
import {
  createEnrollmentKey,
  listEnrollmentKeys,
  revokeEnrollmentKey,
  type EnrollmentKeyInfo,
} from "@/server/enrollment-keys/enrollment-keys";

// Site enrollment keys (`bcse_<id>.<secret>`): create prints the bearer once.
// A create and a revoke that changes something are recorded as
// `compute.admin.changed` (noun `enrollment-key`), in the same transaction.

const describe = (key: EnrollmentKeyInfo) =>
  [
    `bcse_${key.id}`,
    `${key.tenantId}/${key.siteId}`,
    `created ${key.createdAt.toISOString()}`,
    `${key.uses}/${key.maxUses} uses`,
    key.expiresAt ? `expires ${key.expiresAt.toISOString()}` : "no expiry",
    key.revokedAt ? `REVOKED ${key.revokedAt.toISOString()}` : "active",
  ].join("  ");

/** An optional whole number ≥ 1, or a usage error naming the option. */
function positive(values: OptionValues, name: string): number | undefined {
  const given = text(values, name);
  if (given === undefined) return undefined;
  const value = Number(given);
  if (!(Number.isInteger(value) && value > 0)) throw new UsageError(`--${name} must be a positive whole number`, nounUsage(enrollmentKeys));
  return value;
}

const site = (values: OptionValues) => ({
  tenantId: required(values, "tenant", enrollmentKeys),
  siteId: required(values, "site", enrollmentKeys),
});

const record = (context: AdminContext, verb: string, key: EnrollmentKeyInfo) => (tx: Parameters<typeof recordAdminChange>[0]) =>
  recordAdminChange(tx, {
    actor: context.actor,
    noun: "enrollment-key",
    verb,
    tenantId: key.tenantId,
    siteId: key.siteId,
    id: `bcse_${key.id}`,
    now: context.now,
  });

export const enrollmentKeys: AdminNoun = {
  name: "enrollment-keys",
  summary: "Site enrollment keys (bcse_<id>.<secret>) let machines join a site without a pool of their own; the bearer is shown once.",
  verbs: {
    create: {
      synopsis: "--tenant <tenantId> --site <siteId> [--ttl-days <days>] [--max-uses <n, default 1000>]",
      options: { tenant: { type: "string" }, site: { type: "string" }, "ttl-days": { type: "string" }, "max-uses": { type: "string" } },
      async run(context, values) {
        const { tenantId, siteId } = site(values);
        const days = positive(values, "ttl-days");
        const maxUses = positive(values, "max-uses");
        const { bearer, ...key } = await context.db.$transaction(async (tx) => {
          const made = await createEnrollmentKey({
            db: tx,
            tenantId,
            siteId,
            ttlSeconds: days && days * 86_400,
            maxUses,
            now: context.now,
          });
          await record(context, "create", made)(tx);
          return made;
        });
        printOutcome(
          context,
          "created",
          describe(key),
          { enrollmentKey: key, bearer },
          `\nBearer (shown once, store it now):\n  ${bearer}`,
        );
      },
    },
    list: {
      synopsis: "--tenant <tenantId> --site <siteId>",
      options: { tenant: { type: "string" }, site: { type: "string" } },
      async run(context, values) {
        const { tenantId, siteId } = site(values);
        const rows = await listEnrollmentKeys({ db: context.db, tenantId, siteId });
        printLines(context, rows, describe, `no enrollment keys for ${tenantId}/${siteId}`);
      },
    },
    revoke: {
      synopsis: "--tenant <tenantId> --site <siteId> --id <keyId>",
      options: { tenant: { type: "string" }, site: { type: "string" }, id: { type: "string" } },
      async run(context, values) {
        const { tenantId, siteId } = site(values);
        const id = required(values, "id", enrollmentKeys).replace(/^bcse_/, "");
        const { key, outcome } = await context.db.$transaction(async (tx) => {
          const revoked = await revokeEnrollmentKey({ db: tx, tenantId, siteId, id, now: context.now });
          const changed = revoked.revokedAt?.getTime() === context.now.getTime();
          if (changed) await record(context, "revoke", revoked)(tx);
          return { key: revoked, outcome: changed ? ("changed" as const) : ("unchanged" as const) };
        });
        printOutcome(context, outcome, describe(key), { enrollmentKey: key });
      },
    },
  },
};
