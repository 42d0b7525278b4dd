import { createPool } from "@/server/admin/create-pool";
import { listPools } from "@/server/admin/list-places";
import { setPoolArchived } from "@/server/admin/set-pool-archived";
import { required, text, type AdminContext, type AdminNoun, type OptionValues } from "./admin-command";
import { at, printOutcome, printTable } from "./output";
import { POOLS_UPDATE_OPTIONS, POOLS_UPDATE_SYNOPSIS, updatePool } from "./pools-update";

async function archive(context: AdminContext, values: OptionValues, archived: boolean) {
  const id = required(values, "id", pools);
  const tenantId = required(values, "tenant", pools);
  const result = await setPoolArchived({ ...context, archived, input: { tenantId, id } });
  printOutcome(context, result.outcome, `pool ${id} ${archived ? "archived" : "active"}`, { pool: result.pool });
}

const ref = { tenant: { type: "string" }, id: { type: "string" } } as const;

export const pools: AdminNoun = {
  name: "pools",
  summary: "A pool of a site is what machines join and admins decide for; pool ids are unique across the control plane.",
  verbs: {
    create: {
      synopsis: "--tenant <tenantId> --site <siteId> --id <poolId> [--name <name>] [--requires-tpm]",
      options: { ...ref, site: { type: "string" }, name: { type: "string" }, "requires-tpm": { type: "boolean" } },
      async run(context, values) {
        const id = required(values, "id", pools);
        const input = {
          tenantId: required(values, "tenant", pools),
          siteId: required(values, "site", pools),
          id,
          name: text(values, "name") ?? id,
          requiresTpm: values["requires-tpm"] === true,
        };
        const result = await createPool({ ...context, input });
        printOutcome(context, result.outcome, `pool ${id} in ${input.tenantId}/${input.siteId}`, { pool: result.pool });
      },
    },
    list: {
      synopsis: "--tenant <tenantId> [--site <siteId>]",
      options: { tenant: { type: "string" }, site: { type: "string" } },
      async run(context, values) {
        const tenantId = required(values, "tenant", pools);
        const rows = await listPools(context.db, { tenantId, siteId: text(values, "site") });
        printTable(
          context,
          rows,
          [
            ["POOL", (row) => row.id],
            ["SITE", (row) => row.siteId],
            ["NAME", (row) => row.name],
            ["TPM", (row) => (row.requiresTpm ? "required" : "—")],
            ["ARCHIVED", (row) => at(row.archivedAt)],
          ],
          `no pools in ${tenantId}`,
        );
      },
    },
    update: {
      synopsis: POOLS_UPDATE_SYNOPSIS,
      options: POOLS_UPDATE_OPTIONS,
      run: (context, values) => updatePool(context, values, pools),
    },
    archive: { synopsis: "--tenant <tenantId> --id <poolId>", options: ref, run: (context, values) => archive(context, values, true) },
    unarchive: { synopsis: "--tenant <tenantId> --id <poolId>", options: ref, run: (context, values) => archive(context, values, false) },
  },
};
