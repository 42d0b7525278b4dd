import { createServiceKey } from "@/server/admin/create-service-key";
import { listServiceKeys } from "@/server/admin/list-service-keys";
import { revokeServiceKey } from "@/server/admin/revoke-service-key";
import { required, text, type AdminNoun } from "./admin-command";
import { at, printOutcome, printTable } from "./output";

const keyId = (value: string) => value.replace(/^bcsk_/, "");

export const serviceKeys: AdminNoun = {
  name: "service-keys",
  summary: "Service keys let other services call the API (Authorization: Bearer bcsk_<id>.<secret>); add grants to give them access.",
  verbs: {
    create: {
      synopsis: "--tenant <tenantId> --name <name> [--id <keyId: lowercase letters and digits>]",
      options: { tenant: { type: "string" }, name: { type: "string" }, id: { type: "string" } },
      async run(context, values) {
        const id = text(values, "id");
        const input = {
          tenantId: required(values, "tenant", serviceKeys),
          name: required(values, "name", serviceKeys),
          id: id && keyId(id),
        };
        const { outcome, serviceKey, bearer } = await createServiceKey({ ...context, input });
        const what = `service key bcsk_${serviceKey.id} "${serviceKey.name}" in tenant ${serviceKey.tenantId}`;
        const shown = bearer
          ? `\nBearer (shown once, store it now; only its hash is kept):\n  ${bearer}`
          : "Its secret was shown when it was created and cannot be shown again.";
        printOutcome(context, outcome, what, { serviceKey, ...(bearer ? { bearer } : {}) }, shown);
      },
    },
    list: {
      synopsis: "--tenant <tenantId>",
      options: { tenant: { type: "string" } },
      async run(context, values) {
        const tenantId = required(values, "tenant", serviceKeys);
        const rows = await listServiceKeys(context.db, { tenantId });
        printTable(
          context,
          rows,
          [
            ["KEY", (row) => `bcsk_${row.id}`],
            ["NAME", (row) => row.name],
            ["GRANTS", (row) => row.grants.map((grant) => `${grant.role}@${grant.poolId ?? "*"}`).join(" ") || "none"],
            ["CREATED", (row) => at(row.createdAt)],
            ["REVOKED", (row) => at(row.revokedAt)],
          ],
          `no service keys in ${tenantId}`,
        );
      },
    },
    revoke: {
      synopsis: "--tenant <tenantId> --id <keyId>",
      options: { tenant: { type: "string" }, id: { type: "string" } },
      async run(context, values) {
        const input = { tenantId: required(values, "tenant", serviceKeys), id: keyId(required(values, "id", serviceKeys)) };
        const result = await revokeServiceKey({ ...context, input });
        printOutcome(context, result.outcome, `service key bcsk_${input.id} revoked`, { serviceKey: result.serviceKey });
      },
    },
  },
};
