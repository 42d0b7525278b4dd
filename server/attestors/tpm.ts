import "server-only";
import { ApiError } from "../api/errors";
import type { Attestor } from "./attestor";

// Where the pool requires TPM (SPEC B5): no TPM is refused outright; an
// endorsement key on none of the tenant's allow-lists is deferred. Pools
// that do not require TPM skip this attestor (the EK hash is still recorded).
export const tpmAttestor: Attestor = {
  name: "tpm",
  async attest(db, { tenantId, pool, machine }) {
    if (!pool?.requiresTpm) return {};
    if (!machine.tpmEkSha256) {
      throw new ApiError("PERMISSION_DENIED", `pool ${pool.id} requires a TPM: send tpm.ekPublicKey`);
    }
    const allowed = await db.tpmAllowedKey.findUnique({
      where: { tenantId_ekSha256: { tenantId, ekSha256: machine.tpmEkSha256 } },
      select: { id: true },
    });
    return allowed ? {} : { defer: "tpm-ek-not-allowed" };
  },
};
