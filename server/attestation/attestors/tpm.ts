import "server-only";
import { ApiError } from "../../api/errors";
import type { Attestor } from "./attestor";
import { judgeEkCertificate } from "../tpm/judge-ek-certificate";

// Any join that presents a TPM (EK and AK) and has not proven it yet is
// answered with a challenge before anything is recorded, whatever the pool
// (a site-enrollment-key join included, routed or not; SPEC G2): so the EK
// hash a request or node records is always a proven one, and an unclaimed
// request can later be approved into a TPM pool. Where the pool requires TPM
// (SPEC B5, F1): no TPM, or an EK without an AK, is refused outright; a
// proven EK on the tenant's allow-list, or whose EK certificate chains to a
// root of its trust store (SPEC I1), is admitted; any other is deferred, and
// the certificate's issuer, serial and failure go with the request. Pools
// that do not require TPM check nothing more.
export const tpmAttestor: Attestor = {
  name: "tpm",
  async attest(db, { tenantId, pool, machine, tpmProof }) {
    if (machine.tpmEkSha256 && tpmProof.akName && !tpmProof.proven) return { challenge: true };
    if (!pool?.requiresTpm) return {};
    if (!machine.tpmEkSha256 || !tpmProof.akName) {
      throw new ApiError("PERMISSION_DENIED", `pool ${pool.id} requires a TPM: send tpm.ekPublicKey and tpm.akPublic`);
    }
    const allowed = await db.tpmAllowedKey.findUnique({
      where: { tenantId_ekSha256: { tenantId, ekSha256: machine.tpmEkSha256 } },
      select: { id: true },
    });
    if (allowed) return {};
    if (!tpmProof.ekCertificate) return { defer: "tpm-ek-not-allowed" };
    // Reached only with the EK proven: the challenge above is answered first.
    const judged = await judgeEkCertificate(db, tenantId, machine.tpmEkSha256, tpmProof.ekCertificate);
    return judged.trusted ? { ekCertificate: judged.facts } : { defer: "tpm-ek-not-allowed", ekCertificate: judged.facts };
  },
};
