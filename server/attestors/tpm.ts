import "server-only";
import { ApiError } from "../api/errors";
import type { Attestor } from "./attestor";

// Where the pool requires TPM (SPEC B5, F1): no TPM, or an EK without an AK,
// is refused outright; an EK this join has not proven by credential
// activation is answered with a challenge, never trusted; a proven EK on none
// of the tenant's allow-lists is deferred. Pools that do not require TPM skip
// this attestor (a presented EK's hash is still recorded).
export const tpmAttestor: Attestor = {
  name: "tpm",
  async attest(db, { tenantId, pool, machine, tpmProof }) {
    if (!pool?.requiresTpm) return {};
    if (!machine.tpmEkSha256 || !tpmProof.akName) {
      throw new ApiError("PERMISSION_DENIED", `pool ${pool.id} requires a TPM: send tpm.ekPublicKey and tpm.akPublic`);
    }
    if (!tpmProof.proven) return { challenge: true };
    const allowed = await db.tpmAllowedKey.findUnique({
      where: { tenantId_ekSha256: { tenantId, ekSha256: machine.tpmEkSha256 } },
      select: { id: true },
    });
    return allowed ? {} : { defer: "tpm-ek-not-allowed" };
  },
};
