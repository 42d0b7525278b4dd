import { addTpmTrustedRoot, listTpmTrustedRoots, removeTpmTrustedRoot } from "@/server/attestation/trust-store/tpm-trust-store";
import { required, type AdminNoun, type AdminVerb } from "./admin-command";
import { at, pageOptions, printOutcome, printPage } from "./output";

// `npm run admin -- tpm trust-ca add|list|remove` (SPEC I1): the tenant's TPM
// trust store, the manufacturer roots EK certificates must chain to.

/** The trust-ca verbs of `noun` (the tpm noun), keyed by their two words. */
export function trustCaVerbs(noun: () => AdminNoun): Record<string, AdminVerb> {
  const pemOptions = { tenant: { type: "string" }, pem: { type: "string" } } as const;
  const input = async (context: Parameters<AdminVerb["run"]>[0], values: Parameters<AdminVerb["run"]>[1]) => ({
    tenantId: required(values, "tenant", noun()),
    certificate: await context.readFile(required(values, "pem", noun())),
  });
  return {
    "trust-ca add": {
      synopsis: "--tenant <tenantId> --pem <root certificate file>",
      options: pemOptions,
      async run(context, values) {
        const result = await addTpmTrustedRoot({ ...context, input: await input(context, values) });
        const { root } = result;
        printOutcome(context, result.outcome, `root ${root.subject || "(empty subject)"} (SHA-256 ${root.sha256}) trusted`, { root });
      },
    },
    "trust-ca list": {
      synopsis: "--tenant <tenantId> [--limit <1-200>] [--cursor <sha256>]",
      options: { tenant: { type: "string" }, limit: { type: "string" }, cursor: { type: "string" } },
      async run(context, values) {
        const tenantId = required(values, "tenant", noun());
        const page = await listTpmTrustedRoots(context.db, { tenantId, ...pageOptions(values) });
        printPage(
          context,
          page,
          page.roots,
          [
            ["SHA-256", (row) => row.sha256],
            ["SUBJECT", (row) => row.subject || "—"],
            ["NOT BEFORE", (row) => at(row.notBefore)],
            ["NOT AFTER", (row) => at(row.notAfter)],
          ],
          `no trusted TPM roots in ${tenantId}`,
        );
      },
    },
    "trust-ca remove": {
      synopsis: "--tenant <tenantId> --pem <root certificate file>",
      options: pemOptions,
      async run(context, values) {
        const { tenantId, certificate } = await input(context, values);
        const { removed } = await removeTpmTrustedRoot({ ...context, input: { tenantId, certificate } });
        if (context.json) context.print(JSON.stringify({ removed }, null, 2));
        else context.print(removed ? `removed the root from ${tenantId}'s trust store` : "it was not in the trust store; nothing changed");
      },
    },
  };
}
