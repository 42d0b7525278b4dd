import "server-only";
import type { Db } from "../db/client";
import type { JoinRequest } from "../db/generated/client";
import { isUniqueViolation } from "../db/unique-violation";
import { ApiError } from "../api/errors";
import { findPool, readPool, type PoolFacts } from "../places/find-pool";
import { JOIN_REQUEST_COLUMNS } from "../join-requests/join-request-columns";
import { runAttestors } from "../attestation/attestors/run-attestors";
import type { MachineFacts } from "../join-requests/create-join-request";
import { readEndorsementKeyField, verifyCsr, type VerifiedCsr } from "../pki/machine-keys";
import type { EndorsementKey } from "@/lib/tpm/endorsement-key";
import type { PresentedEkCertificate } from "../attestation/tpm/presented-ek-certificate";
import { decideRetry } from "@/lib/join-requests/state-machine";
import type { JoinNodeInput } from "@/lib/validations/node-join";
import { admitApprovedNode, admitNewNode, type Admitted } from "./admit-node";
import { deferJoin, pendingOutcome, type Pending } from "./defer-join";
import { CSR_ADMITTED_MESSAGE, csrAdmittedSql } from "./csr-admitted";
import { checkHostnameFree, checkMachineReplaceable } from "./replace-machine-nodes";
import { checkTpmRequirement } from "../join-requests/check-tpm-requirement";
import { attestationKeyName } from "../attestation/tpm/attestation-key";
import { issueTpmChallenge, type Challenge } from "../attestation/tpm/issue-tpm-challenge";
import { verifyTpmActivation } from "../attestation/tpm/tpm-activation";
import { verifyJoinQuote } from "../attestation/tpm/verify-join-quote";
import { readPoolBootPolicy } from "../attestation/tpm/pool-boot-policy";
import { judgeBoot } from "../attestation/tpm/judge-boot";
import { bootStatePcrSelection } from "@/lib/pools/boot-states";
import { readEkCertificateField } from "../attestation/tpm/read-ek-certificate-field";
import { refuseCredential, type JoinCredential } from "./join-credential";
import { checkJoinCredentialUsesLeft, countJoinCredentialUse } from "./count-join-credential-use";
import { recordedMachine } from "./recorded-machine";
import { provenAkOf } from "./proven-ak";
import { pendingLimitsFromEnv, type PendingLimits } from "./pending-flood-guard";

// The machine's join, POST /api/compute/nodes/join (SPEC B5), in order:
// the CSR verifies → the credential's pool is open → a CSR seen before is a
// retry (its request's state answers) → otherwise the attestors run, and
// the join is admitted (200) or deferred into a pending request (202).

interface JoinScope {
  tenantId: string;
  siteId: string;
  /** the token's pool; null for a site enrollment key */
  pool: PoolFacts | null;
}

const archived = (pool: PoolFacts) => new ApiError("PERMISSION_DENIED", `pool ${pool.id} is archived; it admits no joins`);

/** Something changed between read and write (a concurrent join or decision): read again. */
class ReadAgain extends Error {}

export async function joinNode(input: {
  db: Db;
  credential: JoinCredential;
  body: JoinNodeInput;
  now: Date;
  limits?: PendingLimits;
  pendingTtlSeconds?: number;
}): Promise<Admitted | Pending | Challenge> {
  const { db, credential, body } = input;
  const csr = await verifyCsr(body.csr);
  await checkJoinCredentialUsesLeft(db, credential, csr.sha256); // SPEC G4: before any other work
  const ek = body.tpm ? readEndorsementKeyField(body.tpm.ekPublicKey) : null; // SPEC G1: read once
  const ekCertificate = body.tpm && ek ? readEkCertificateField(body.tpm, ek, input.now) : undefined; // SPEC I1
  const akName = body.tpm?.akPublic ? attestationKeyName(body.tpm.akPublic) : null;
  if (body.tpm?.activation && !akName) {
    throw new ApiError("INVALID_ARGUMENT", "tpm.activation answers a challenge for an AK: send tpm.akPublic with it", [
      { field: "tpm.akPublic", message: "is required with tpm.activation" },
    ]);
  }
  // As presented: what the attestors judge; recordedMachine says what is kept.
  const machine: MachineFacts = {
    hostname: body.hostname,
    ...body.hardware,
    tpmEkSha256: ek?.sha256 ?? null,
    tpmEkProven: false,
  };
  const scope = await joinScope(db, credential);
  const join = { ...input, limits: input.limits ?? pendingLimitsFromEnv(), csr, machine, scope, akName, ek, ekCertificate };
  for (let round = 0; round < 4; round++) {
    try {
      return await joinOnce(join);
    } catch (error) {
      if (!(error instanceof ReadAgain) && !isUniqueViolation(error)) throw error;
    }
  }
  throw new ApiError("UNAVAILABLE", "this CSR's join kept changing concurrently; try again");
}

type Join = Parameters<typeof joinNode>[0] & {
  limits: PendingLimits;
  csr: VerifiedCsr;
  machine: MachineFacts;
  scope: JoinScope;
  akName: Buffer | null;
  ek: EndorsementKey | null;
  ekCertificate: PresentedEkCertificate | undefined;
};

async function joinOnce(join: Join): Promise<Admitted | Pending | Challenge> {
  const { db, credential, csr, machine, scope, now, akName } = join;
  const { previous, admitted } = await findCsrHistory(db, scope.tenantId, csr.sha256);
  let expireRequestId: string | undefined;
  if (previous) {
    checkRetryScope(previous, credential, scope);
    const decision = decideRetry(previous, now);
    if (decision.kind === "wait") return pendingOutcome(previous);
    if (decision.kind === "consume") return consume(join, previous);
    if (decision.kind === "refused") throw new ApiError(decision.code, decision.message);
    if (decision.markExpired) expireRequestId = previous.id;
  } else if (admitted) {
    throw new ApiError("INVALID_STATE", CSR_ADMITTED_MESSAGE);
  }

  // SPEC F1, second step: the secret the machine's TPM recovered proves its
  // EK; SPEC I2: the quote the challenge asked for is checked with it, both
  // before anything is written.
  const activation = join.body.tpm?.activation;
  let quotedPcrs: Record<string, string> | null = null;
  let quoteAsked = false;
  if (activation && akName && machine.tpmEkSha256) {
    const asked = await verifyTpmActivation(
      db,
      { ...activation, tenantId: scope.tenantId, csrSha256: csr.sha256, ekSha256: machine.tpmEkSha256, akName },
      now,
    );
    quoteAsked = asked !== null;
    quotedPcrs = verifyJoinQuote({
      asked,
      quote: join.body.tpm?.quote,
      akPublic: join.body.tpm!.akPublic!,
      challengeId: activation.challengeId,
    });
  } else if (join.body.tpm?.quote) {
    throw new ApiError("INVALID_ARGUMENT", "tpm.quote answers a challenge: send it with tpm.activation", [
      { field: "tpm.quote", message: "is only sent with tpm.activation" },
    ]);
  }
  const tpmChallengeId = activation?.challengeId;
  const { reasons, pool, challenge, ekCertificate } = await runAttestors(db, {
    tenantId: scope.tenantId,
    siteId: scope.siteId,
    pool: scope.pool,
    credential: credential.kind,
    machine,
    tpmProof: { akName, proven: tpmChallengeId !== undefined, ekCertificate: join.ekCertificate },
  });
  if (pool?.archivedAt) throw archived(pool);
  const bootPolicy = await readPoolBootPolicy(db, pool?.id);
  if (challenge && akName && join.ek) {
    return issueTpmChallenge({
      db,
      countUse: (tx) => countJoinCredentialUse(tx, credential, csr.sha256, now),
      tenantId: scope.tenantId,
      csrSha256: csr.sha256,
      ek: join.ek,
      akName,
      pcrSelection: bootStatePcrSelection(bootPolicy.states),
      now,
    });
  }
  const boot = judgeBoot(bootPolicy, { pcrs: quotedPcrs, asked: quoteAsked }, pool?.id);
  if (boot.defer) reasons.push(boot.defer);
  const recorded = recordedMachine(machine, tpmChallengeId !== undefined);
  if (reasons.length === 0 && pool) {
    const tpmAkPublic = join.body.tpm?.akPublic ?? undefined; // proven with the activation (verifyTpmActivation checked its Name)
    return admitNewNode({ db, credential, pool, machine: recorded, csr, expireRequestId, tpmChallengeId, tpmAkPublic, now });
  }
  return deferJoin({
    db,
    credential,
    tenantId: scope.tenantId,
    siteId: scope.siteId,
    poolId: pool?.id ?? null,
    reasons,
    machine: recorded,
    csrSha256: csr.sha256,
    expireRequestId,
    tpmChallengeId,
    ekCertificate,
    bootMeasurement: boot.measurement,
    limits: join.limits,
    ttlSeconds: join.pendingTtlSeconds,
    now,
  });
}

async function consume(join: Join, request: JoinRequest): Promise<Admitted> {
  const pool = await findPool(join.db, request.tenantId, request.poolId!);
  if (pool.archivedAt) throw archived(pool);
  // Taken since the approval (SPEC F3, G7): answered as such, not read again.
  await checkHostnameFree(join.db, request);
  await checkMachineReplaceable(join.db, request);
  // So may a TPM requirement the pool gained since the approval (SPEC G2).
  checkTpmRequirement(pool, request);
  const tpmAkPublic = await provenAkOf(join.db, {
    tenantId: request.tenantId,
    csrSha256: join.csr.sha256,
    akPublic: join.body.tpm?.akPublic ?? undefined,
    akName: join.akName,
  });
  try {
    return await admitApprovedNode({ db: join.db, credential: join.credential, pool, request, csr: join.csr, tpmAkPublic, now: join.now });
  } catch (error) {
    // Decided, consumed or expired since we read it: its new state answers.
    if (error instanceof ApiError && error.code === "INVALID_STATE") throw new ReadAgain();
    throw error;
  }
}

/**
 * What this CSR did before in this tenant, in one round trip: its latest join
 * request, and whether a node was admitted with it (only asked when it has no
 * request). A CSR's history is its tenant's (SPEC G8): what it did in another
 * tenant neither blocks this join nor is told to this caller.
 */
async function findCsrHistory(
  db: Db,
  tenantId: string,
  csrSha256: string,
): Promise<{ previous: JoinRequest | undefined; admitted: boolean }> {
  const [row] = await db.$queryRaw<(JoinRequest & { admitted: boolean; found: boolean })[]>`
    SELECT ${JOIN_REQUEST_COLUMNS}, request.id IS NOT NULL AS found,
      ${csrAdmittedSql(tenantId, csrSha256)} AS admitted
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL (
      SELECT * FROM join_requests WHERE tenant_id = ${tenantId} AND csr_sha256 = ${csrSha256} ORDER BY id DESC LIMIT 1
    ) AS request ON true`;
  const { admitted, found, ...previous } = row!;
  return { previous: found ? previous : undefined, admitted };
}

async function joinScope(db: Db, credential: JoinCredential): Promise<JoinScope> {
  if (credential.kind === "site-enrollment-key") {
    return { tenantId: credential.tenantId, siteId: credential.siteId, pool: null };
  }
  const pool = await readPool(db, credential.tenantId, credential.poolId);
  if (!pool) throw refuseCredential(credential.actor, "unknown");
  if (pool.archivedAt) throw archived(pool);
  return { tenantId: pool.tenantId, siteId: pool.siteId, pool };
}

/** A retry continues its request only with a credential of the same site (and pool, for a token). */
function checkRetryScope(request: JoinRequest, credential: JoinCredential, scope: JoinScope): void {
  const sameSite = request.tenantId === scope.tenantId && request.siteId === scope.siteId;
  const samePool = credential.kind === "site-enrollment-key" || request.poolId === null || request.poolId === scope.pool?.id;
  if (!sameSite || !samePool) {
    throw new ApiError("PERMISSION_DENIED", "this CSR belongs to a join this credential cannot continue");
  }
}
