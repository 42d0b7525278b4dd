import { addTpmAllowedKey, listTpmAllowedKeys, removeTpmAllowedKey } from "@/server/attestation/allow-list/tpm-allow-list";
import { UsageError } from "../../shared/run-cli";
import { nounUsage, required, text, type AdminNoun } from "./admin-command";
import { at, pageOptions, printOutcome, printPage } from "./output";
import { trustCaVerbs } from "./tpm-trust-ca";

export const tpm: AdminNoun = {
  name: "tpm",
  summary:
    "A tenant's TPM allow-list: endorsement keys (by SHA-256 of their DER SubjectPublicKeyInfo) the tpm attestor vouches for; " +
    "and its trust store (trust-ca): manufacturer roots an EK certificate may chain to.",
  verbs: {
    allow: {
      synopsis: "--tenant <tenantId> (--ek-pem <file> | --sha256 <hex>) [--note <text>]",
      options: { tenant: { type: "string" }, "ek-pem": { type: "string" }, sha256: { type: "string" }, note: { type: "string" } },
      async run(context, values) {
        const file = text(values, "ek-pem");
        const sha256 = text(values, "sha256");
        if ((file === undefined) === (sha256 === undefined)) throw new UsageError("give --ek-pem <file> or --sha256 <hex>", nounUsage(tpm));
        const input = {
          tenantId: required(values, "tenant", tpm),
          ekPublicKey: file === undefined ? undefined : await context.readFile(file),
          ekSha256: sha256,
          note: text(values, "note"),
        };
        const result = await addTpmAllowedKey({ ...context, input });
        printOutcome(context, result.outcome, `endorsement key ${result.key.ekSha256} allowed in ${input.tenantId}`, { key: result.key });
      },
    },
    list: {
      synopsis: "--tenant <tenantId> [--limit <1-200>] [--cursor <sha256>]",
      options: { tenant: { type: "string" }, limit: { type: "string" }, cursor: { type: "string" } },
      async run(context, values) {
        const tenantId = required(values, "tenant", tpm);
        const page = await listTpmAllowedKeys(context.db, { tenantId, ...pageOptions(values) });
        printPage(
          context,
          page,
          page.keys,
          [
            ["EK SHA-256", (row) => row.ekSha256],
            ["NOTE", (row) => row.note || "—"],
            ["ADDED", (row) => at(row.createdAt)],
          ],
          `no allowed endorsement keys in ${tenantId}`,
        );
      },
    },
    remove: {
      synopsis: "--tenant <tenantId> --sha256 <hex>",
      options: { tenant: { type: "string" }, sha256: { type: "string" } },
      async run(context, values) {
        const input = { tenantId: required(values, "tenant", tpm), ekSha256: required(values, "sha256", tpm) };
        const { removed } = await removeTpmAllowedKey({ ...context, input });
        if (context.json) context.print(JSON.stringify({ removed }, null, 2));
        else
          context.print(
            removed ? `removed ${input.ekSha256} from ${input.tenantId}'s allow-list` : "it was not on the allow-list; nothing changed",
          );
      },
    },
    ...trustCaVerbs(() => tpm),
  },
};
