import { createTenant } from "@/server/admin/create-tenant";
import { listTenants } from "@/server/admin/list-places";
import { required, text, type AdminNoun } from "./admin-command";
import { at, printOutcome, printTable } from "./output";

export const tenants: AdminNoun = {
  name: "tenants",
  summary: "Tenants own sites; a tenant's grants and service keys act within it.",
  verbs: {
    create: {
      synopsis: "--id <tenantId> [--name <name>]",
      options: { id: { type: "string" }, name: { type: "string" } },
      async run(context, values) {
        const id = required(values, "id", tenants);
        const result = await createTenant({ ...context, input: { id, name: text(values, "name") ?? id } });
        printOutcome(context, result.outcome, `tenant ${id}`, { tenant: result.tenant });
      },
    },
    list: {
      synopsis: "",
      options: {},
      async run(context) {
        const rows = await listTenants(context.db);
        printTable(
          context,
          rows,
          [
            ["TENANT", (row) => row.id],
            ["NAME", (row) => row.name],
            ["CREATED", (row) => at(row.createdAt)],
          ],
          "no tenants",
        );
      },
    },
  },
};
