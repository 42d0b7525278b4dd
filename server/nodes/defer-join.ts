import "server-only";
import type { Db, Tx } from "../db/client";
import { ApiError } from "../api/errors";
import type { JoinRequest } from "../db/generated/client";
import { insertJoinRequest, type MachineFacts } from "../join-requests/create-join-request";
import { markJoinRequestExpired } from "../join-requests/expire-join-request";
import type { BootMeasurementJson, EkCertificateJson, JoinRequestReason } from "@/lib/join-requests/join-request-json";
import { PENDING_TTL_SECONDS } from "@/lib/join-requests/state-machine";
import { countJoinCredentialUse } from "./count-join-credential-use";
import { CSR_ADMITTED_MESSAGE, csrAdmittedSql } from "./csr-admitted";
import type { JoinCredential } from "./join-credential";
import { useTpmChallenge } from "../attestation/tpm/tpm-activation";
import { guardPendingFlood, type PendingLimits } from "./pending-flood-guard";
import { evaluateRequestRules } from "../approval-rules/evaluate-request-rules";
import { log } from "../log";

export interface Pending {
  status: "pending";
  requestId: string;
  expiresAt: string;
  reasons: JoinRequestReason[];
}

export const pendingOutcome = (request: JoinRequest): Pending => ({
  status: "pending",
  requestId: request.id,
  expiresAt: request.expiresAt.toISOString(),
  reasons: request.reasons as JoinRequestReason[],
});

/**
 * An attestor deferred the join: in one transaction, mark the CSR's expired
 * request (if a retry is starting over), record the new pending request with
 * its `created` event, count the token use and check the flood guard.
 * A concurrent first join with the same CSR makes this insert violate
 * join_requests_tenant_live_csr_key; the caller then answers as a retry.
 */
export async function deferJoin(input: {
  db: Db;
  credential: JoinCredential;
  tenantId: string;
  siteId: string;
  /** null: an unclaimed site request */
  poolId: string | null;
  reasons: JoinRequestReason[];
  machine: MachineFacts;
  csrSha256: string;
  expireRequestId?: string;
  /** SPEC F1: the activated challenge this join used */
  tpmChallengeId?: string;
  /** SPEC I1: what the EK certificate said, kept with the request */
  ekCertificate?: EkCertificateJson;
  /** SPEC I2: what the join's quote attested, kept with the request */
  bootMeasurement?: NonNullable<BootMeasurementJson>;
  limits: PendingLimits;
  ttlSeconds?: number;
  now: Date;
}): Promise<Pending> {
  const { db, credential, now } = input;
  const request = await db.$transaction(async (tx) => {
    await checkCsrNotAdmitted(tx, input.tenantId, input.csrSha256);
    if (input.tpmChallengeId) await useTpmChallenge(tx, input.tpmChallengeId, now);
    if (input.expireRequestId) await markJoinRequestExpired(tx, { requestId: input.expireRequestId, actor: credential.actor, now });
    // The writes no other join contends for come first; the shared locks (the
    // token's row, then the pool's flood lock) last, so a burst of machines
    // joining one pool through one token queues on them for as few
    // statements as possible before COMMIT (bench: 32 at once).
    const created = await insertJoinRequest(tx, {
      tenantId: input.tenantId,
      siteId: input.siteId,
      poolId: input.poolId,
      reasons: input.reasons,
      machine: input.machine,
      csrSha256: input.csrSha256,
      credential: credential.kind === "join-token" ? { joinTokenId: credential.id } : { enrollKeyId: credential.id },
      actor: credential.actor,
      now,
      ttlSeconds: input.ttlSeconds ?? PENDING_TTL_SECONDS,
    });
    if (input.ekCertificate) await tx.joinRequestEkCertificate.create({ data: { requestId: created.id, ...input.ekCertificate } });
    if (input.bootMeasurement) await tx.joinRequestBootMeasurement.create({ data: { requestId: created.id, ...input.bootMeasurement } });
    await countJoinCredentialUse(tx, credential, input.csrSha256, now);
    await guardPendingFlood(tx, { tenantId: input.tenantId, siteId: input.siteId, poolId: input.poolId, limits: input.limits, now });
    return created;
  });
  // SPEC H2: the rules run right after the join's transaction, not inside it:
  // the join holds its token's row and its pool's flood lock until COMMIT,
  // and a rule's decision is the transition statement people use, on a
  // committed request. The machine's answer is the 202 either way (a decision
  // shows on its retry); a failure or a crash here leaves the request
  // unevaluated (rules_evaluated_at null) for the sweep.
  if (request.rulesEvaluatedAt === null) {
    await evaluateRequestRules({ db, requestId: request.id, now }).catch((error: unknown) =>
      log.error("approval rules did not run; the sweep will run them", { requestId: request.id, error: String(error) }),
    );
  }
  return pendingOutcome(request);
}

/**
 * The join read this CSR's history before its attestors ran. A concurrent
 * join of the same CSR may have been admitted in between, and the attestors
 * then defer this one as machine-already-joined: for the very node its own
 * CSR made. Read here, in the deferral's transaction after the attestors,
 * that admission is committed and seen, and the join is answered as a retry
 * of an admitted CSR instead of leaving a request for it.
 */
async function checkCsrNotAdmitted(tx: Tx, tenantId: string, csrSha256: string): Promise<void> {
  const [row] = await tx.$queryRaw<{ admitted: boolean }[]>`SELECT ${csrAdmittedSql(tenantId, csrSha256)} AS admitted`;
  if (row!.admitted) throw new ApiError("INVALID_STATE", CSR_ADMITTED_MESSAGE);
}
