import { listDiscoveredMachines } from "@/server/attestation/discovery/list-discovered-machines";
import { removeDiscoveredMachines } from "@/server/attestation/discovery/remove-discovered-machines";
import { writeDiscoveredMachines } from "@/server/attestation/discovery/upsert-discovered-machines";
import { AdminError, parseAdminInput } from "@/server/admin/admin-error";
import { removeDiscoveredMachinesInput } from "@/lib/validations/attestation";
import { required, text, type AdminNoun } from "./admin-command";
import { parseMachineManifest } from "@/lib/attestation/machine-manifest";
import { at, printTable } from "./output";

export const discovery: AdminNoun = {
  name: "discovery",
  summary:
    "A site's discovery inventory: machines the discovery attestor knows (admitted at their next join, or into their assigned pool).",
  verbs: {
    import: {
      synopsis: "--tenant <tenantId> --site <siteId> --file <manifest.csv|manifest.json>",
      options: { tenant: { type: "string" }, site: { type: "string" }, file: { type: "string" } },
      async run(context, values) {
        const tenantId = required(values, "tenant", discovery);
        const siteId = required(values, "site", discovery);
        const file = required(values, "file", discovery);
        const manifest = parseMachineManifest(await context.readFile(file), file);
        if (!manifest.ok) {
          throw new AdminError(
            `nothing imported: ${manifest.errors.length} bad ${manifest.errors.length === 1 ? "entry" : "entries"}: ${manifest.errors.join(" | ")}`,
            "INVALID_ARGUMENT",
          );
        }
        const { actor, now } = context;
        // the whole manifest in one transaction: all or nothing
        const counts = await context.db.$transaction(
          (tx) => writeDiscoveredMachines(tx, { tenantId, siteId, machines: manifest.machines, actor, now }),
          {
            timeout: 60_000,
          },
        );
        if (context.json) context.print(JSON.stringify(counts, null, 2));
        else
          context.print(
            `imported into ${tenantId}/${siteId}: ${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged`,
          );
      },
    },
    list: {
      synopsis: "--tenant <tenantId> --site <siteId> [--query <UUID or MAC prefix>] [--limit <1-200>] [--cursor <systemUuid>]",
      options: {
        tenant: { type: "string" },
        site: { type: "string" },
        query: { type: "string" },
        limit: { type: "string" },
        cursor: { type: "string" },
      },
      async run(context, values) {
        const limit = text(values, "limit");
        const input = {
          tenantId: required(values, "tenant", discovery),
          siteId: required(values, "site", discovery),
          query: text(values, "query"),
          cursor: text(values, "cursor"),
          limit: limit === undefined ? undefined : Number(limit),
        };
        const page = await listDiscoveredMachines(context.db, input);
        printTable(
          context,
          page.machines,
          [
            ["SYSTEM UUID", (row) => row.systemUuid],
            ["MACS", (row) => row.macAddresses.join(" ")],
            ["POOL", (row) => row.assignedPoolId],
            ["ADDED", (row) => at(row.createdAt)],
          ],
          `no machines in ${input.tenantId}/${input.siteId}${input.query ? ` matching ${input.query}` : ""}`,
          page,
        );
        if (!context.json && page.nextCursor) context.print(`more: --cursor ${page.nextCursor}`);
      },
    },
    remove: {
      synopsis: "--tenant <tenantId> --site <siteId> --uuid <systemUuid>[,<systemUuid>…]",
      options: { tenant: { type: "string" }, site: { type: "string" }, uuid: { type: "string" } },
      async run(context, values) {
        const input = parseAdminInput(removeDiscoveredMachinesInput, {
          tenantId: required(values, "tenant", discovery),
          siteId: required(values, "site", discovery),
          systemUuids: required(values, "uuid", discovery).split(",").filter(Boolean),
        });
        const { removed } = await removeDiscoveredMachines({ ...context, input });
        if (context.json) context.print(JSON.stringify({ removed }, null, 2));
        else
          context.print(
            removed
              ? `removed ${removed} of ${input.systemUuids.length} from ${input.tenantId}/${input.siteId}`
              : "none of them was known; nothing changed",
          );
      },
    },
  },
};
