// npm run enrollment-keys -- create|list|revoke --tenant acme --site fra1 [--id <keyId>] [--ttl-days N] [--max-uses N]
// Site enrollment keys (bcse_<id>.<secret>): create prints the bearer once.
import { parseArgs } from "node:util";
import { runCli, UsageError } from "./run-cli";
import { getDb } from "@/server/db/client";
import {
  createEnrollmentKey,
  listEnrollmentKeys,
  revokeEnrollmentKey,
  type EnrollmentKeyInfo,
} from "@/server/enrollment-keys/enrollment-keys";

const USAGE = `Usage:
  npm run enrollment-keys -- create --tenant <tenantId> --site <siteId> [--ttl-days <days>] [--max-uses <n>]   (default 1000 uses)
  npm run enrollment-keys -- list   --tenant <tenantId> --site <siteId>
  npm run enrollment-keys -- revoke --tenant <tenantId> --site <siteId> --id <keyId>`;

const describeKey = (key: EnrollmentKeyInfo) =>
  [
    `bcse_${key.id}`,
    `${key.tenantId}/${key.siteId}`,
    `created ${key.createdAt.toISOString()}`,
    `${key.uses}/${key.maxUses} uses`,
    key.expiresAt ? `expires ${key.expiresAt.toISOString()}` : "no expiry",
    key.revokedAt ? `REVOKED ${key.revokedAt.toISOString()}` : "active",
  ].join("  ");

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      tenant: { type: "string" },
      site: { type: "string" },
      id: { type: "string" },
      "ttl-days": { type: "string" },
      "max-uses": { type: "string" },
    },
  });
  const [command] = positionals;
  const { tenant: tenantId, site: siteId } = values;
  if (!command || !["create", "list", "revoke"].includes(command) || !tenantId || !siteId) throw new UsageError();

  const db = await getDb();
  try {
    const now = new Date();
    if (command === "create") {
      const days = values["ttl-days"] === undefined ? undefined : Number(values["ttl-days"]);
      if (days !== undefined && !(Number.isInteger(days) && days > 0)) throw new UsageError("--ttl-days must be a positive whole number");
      const maxUses = values["max-uses"] === undefined ? undefined : Number(values["max-uses"]);
      if (maxUses !== undefined && !(Number.isInteger(maxUses) && maxUses > 0))
        throw new UsageError("--max-uses must be a positive whole number");
      const key = await createEnrollmentKey({ db, tenantId, siteId, ttlSeconds: days && days * 86_400, maxUses, now });
      console.log(describeKey(key));
      console.log(`\nBearer (shown once, store it now):\n  ${key.bearer}`);
    } else if (command === "list") {
      const keys = await listEnrollmentKeys({ db, tenantId, siteId });
      console.log(keys.length ? keys.map(describeKey).join("\n") : `no enrollment keys for ${tenantId}/${siteId}`);
    } else {
      const id = values.id?.replace(/^bcse_/, "");
      if (!id) throw new UsageError("revoke needs --id <keyId>");
      console.log(describeKey(await revokeEnrollmentKey({ db, tenantId, siteId, id, now })));
    }
  } finally {
    await db.$disconnect();
  }
}

runCli("enrollment-keys", USAGE, main);
