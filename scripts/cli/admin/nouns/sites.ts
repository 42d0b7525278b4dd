import { createSite } from "@/server/admin/create-site";
import { listSites } from "@/server/admin/list-places";
import { required, text, type AdminNoun } from "./admin-command";
import { at, printOutcome, printTable } from "./output";

export const sites: AdminNoun = {
  name: "sites",
  summary: "A site holds pools, a discovery inventory and enrollment keys; site ids are unique across the control plane.",
  verbs: {
    create: {
      synopsis: "--tenant <tenantId> --id <siteId> [--name <name>]",
      options: { tenant: { type: "string" }, id: { type: "string" }, name: { type: "string" } },
      async run(context, values) {
        const id = required(values, "id", sites);
        const tenantId = required(values, "tenant", sites);
        const result = await createSite({ ...context, input: { tenantId, id, name: text(values, "name") ?? id } });
        printOutcome(context, result.outcome, `site ${id} in tenant ${tenantId}`, { site: result.site });
      },
    },
    list: {
      synopsis: "--tenant <tenantId>",
      options: { tenant: { type: "string" } },
      async run(context, values) {
        const tenantId = required(values, "tenant", sites);
        const rows = await listSites(context.db, { tenantId });
        printTable(
          context,
          rows,
          [
            ["SITE", (row) => row.id],
            ["NAME", (row) => row.name],
            ["CREATED", (row) => at(row.createdAt)],
          ],
          `no sites in ${tenantId}`,
        );
      },
    },
  },
};
