import "server-only";
import type { Db } from "../../db/client";
import type { PoolFacts } from "../../places/find-pool";
import type { EkCertificateJson, JoinRequestReason } from "@/lib/join-requests/join-request-json";
import { activeHostnameAttestor, activeMachineAttestor } from "./active-nodes";
import type { AttestationSubject, Attestor } from "./attestor";
import { discoveryAttestor } from "./discovery";
import { hardwareAttestor } from "./hardware";
import { tpmAttestor } from "./tpm";

// The attestors of a join, in the order they run (SPEC B5). Discovery runs
// before tpm because a site-enrollment-key join learns its pool there, and
// whether TPM is required is the pool's to say. The machine and its hostname
// must not belong to an active node (SPEC F2, F3), whatever the others say.
export const ATTESTORS: readonly Attestor[] = [
  hardwareAttestor,
  discoveryAttestor,
  tpmAttestor,
  activeMachineAttestor,
  activeHostnameAttestor,
];

export interface Attestation {
  /** the deferrals, in attestor order; empty: admit */
  reasons: JoinRequestReason[];
  /** the pool the join goes into; null: an unclaimed site request */
  pool: PoolFacts | null;
  /** the EK must be proven before anything is decided (SPEC F1) */
  challenge: boolean;
  /** what the tpm attestor found in the join's EK certificate (SPEC I1); null: none judged */
  ekCertificate: EkCertificateJson;
}

/** Runs every attestor in turn; one that refuses throws, and the join ends there. */
export async function runAttestors(db: Db, subject: AttestationSubject): Promise<Attestation> {
  let current = subject;
  const reasons: JoinRequestReason[] = [];
  let ekCertificate: EkCertificateJson = null;
  for (const attestor of ATTESTORS) {
    const verdict = await attestor.attest(db, current);
    if (verdict.challenge) return { reasons: [], pool: current.pool, challenge: true, ekCertificate: null };
    if (verdict.ekCertificate) ekCertificate = verdict.ekCertificate;
    if (verdict.pool) current = { ...current, pool: verdict.pool };
    if (verdict.defer && !reasons.includes(verdict.defer)) reasons.push(verdict.defer);
  }
  return { reasons, pool: current.pool, challenge: false, ekCertificate };
}
