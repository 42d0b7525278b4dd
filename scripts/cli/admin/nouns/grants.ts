import { addGrant } from "@/server/admin/add-grant";
import { listGrants } from "@/server/admin/list-grants";
import { removeGrant } from "@/server/admin/remove-grant";
import { grantSubject, poolScope, required, type AdminContext, type AdminNoun, type OptionValues } from "./admin-command";
import { at, printOutcome, printTable } from "./output";

const GRANT_OPTIONS = {
  tenant: { type: "string" },
  subject: { type: "string" },
  role: { type: "string" },
  pool: { type: "string" },
  "all-pools": { type: "boolean" },
} as const;
const SYNOPSIS =
  "--tenant <tenantId> --subject <email | service key id> --role <pool-viewer|pool-admin|tenant-admin> (--pool <poolId> | --all-pools)";

function grantInput(values: OptionValues) {
  return {
    tenantId: required(values, "tenant", grants),
    subject: grantSubject(values, grants),
    role: required(values, "role", grants),
    poolId: poolScope(values, grants),
  };
}

const scope = (poolId: string | null, tenantId: string) => (poolId ? `pool ${poolId}` : `every pool of ${tenantId}`);

async function add(context: AdminContext, values: OptionValues) {
  const { grant, outcome } = await addGrant({ ...context, input: grantInput(values) });
  printOutcome(context, outcome, `${grant.role} for ${grant.subject} on ${scope(grant.poolId, grant.tenantId)}`, { grant });
}

async function remove(context: AdminContext, values: OptionValues) {
  const input = grantInput(values);
  const result = await removeGrant({ ...context, input });
  printOutcome(context, result.outcome, `removed ${input.role} on ${scope(input.poolId, input.tenantId)}`, { removed: result.removed });
}

export const grants: AdminNoun = {
  name: "grants",
  summary:
    "Role grants within a tenant, to a user (by email) or a service key (by id), on one pool or every pool.\n" +
    "pool-viewer reads queues; pool-admin also decides; tenant-admin (every pool only) also manages the attestors' knowledge.",
  verbs: {
    add: { synopsis: SYNOPSIS, options: GRANT_OPTIONS, run: add },
    remove: { synopsis: SYNOPSIS, options: GRANT_OPTIONS, run: remove },
    list: {
      synopsis: "--tenant <tenantId>",
      options: { tenant: { type: "string" } },
      async run(context, values) {
        const tenantId = required(values, "tenant", grants);
        const rows = await listGrants(context.db, { tenantId });
        printTable(
          context,
          rows,
          [
            ["SUBJECT", (row) => row.subject],
            ["ROLE", (row) => row.role],
            ["POOL", (row) => row.poolId ?? "(every pool)"],
            ["GRANTED", (row) => at(row.createdAt)],
          ],
          `no grants in ${tenantId}`,
        );
      },
    },
  },
};
