import "server-only";
import type { Db } from "../db/client";
import type { JoinRequest } from "../db/generated/client";
import type { PoolFacts } from "../places/find-pool";
import type { MachineFacts } from "../join-requests/create-join-request";
import { consumeApproval } from "../join-requests/consume-approval";
import { markJoinRequestExpired } from "../join-requests/expire-join-request";
import { issueNodeCertificate } from "../pki/issue-node-certificate";
import type { VerifiedCsr } from "../pki/machine-keys";
import { tenantCa } from "../pki/tenant-ca";
import { newId } from "@/lib/ids";
import { countJoinCredentialUse } from "./count-join-credential-use";
import { insertNode } from "./insert-node";
import { useTpmChallenge } from "../attestation/tpm/tpm-activation";
import { revokeReplacedNodes } from "./replace-machine-nodes";
import type { JoinCredential } from "./join-credential";

export interface Admitted {
  status: "admitted";
  nodeId: string;
  certificate: string;
  caCertificate: string;
}

/**
 * The certificate is signed before anything is written: a missing CA key
 * configuration fails the join without using the token or the approval. If
 * the writes then lose a race, the certificate is simply never returned.
 */
async function signFor(db: Db, tenantId: string, csr: VerifiedCsr, hostname: string, now: Date) {
  const ca = await tenantCa(db, tenantId, now);
  const certificate = await issueNodeCertificate({ ca, publicKey: csr.publicKey, hostname, now });
  return { ca, certificate, nodeId: newId("node", now.getTime()) };
}

/**
 * No attestor deferred: the credential's use, then the node (insertNode's one
 * statement), in a transaction with the challenge's use or an expired
 * request's marking when the join has either.
 */
export async function admitNewNode(input: {
  db: Db;
  credential: JoinCredential;
  pool: PoolFacts;
  machine: MachineFacts;
  csr: VerifiedCsr;
  expireRequestId?: string;
  /** SPEC F1: the activated challenge this join used */
  tpmChallengeId?: string;
  /** SPEC I3: the AK that challenge proved (its TPM2B_PUBLIC) */
  tpmAkPublic?: Buffer;
  now: Date;
}): Promise<Admitted> {
  const { db, credential, pool, machine, csr, now } = input;
  const { ca, certificate, nodeId } = await signFor(db, pool.tenantId, csr, machine.hostname, now);
  // Counted on its own, before the writes: the credential's row is the one
  // every join of a boot storm shares (countJoinCredentialUse says why).
  await countJoinCredentialUse(db, credential, csr.sha256, now);
  const node = {
    nodeId,
    tenantId: pool.tenantId,
    siteId: pool.siteId,
    poolId: pool.id,
    machine,
    csrSha256: csr.sha256,
    joinRequestId: null,
    credential,
    certificate,
    tpmAkPublic: input.tpmChallengeId ? (input.tpmAkPublic ?? null) : null,
    now,
  };
  // The usual admission (no challenge to use up, no expired request to mark)
  // is the node's one statement on its own: a transaction around it would
  // only add BEGIN and COMMIT, two round trips of every join in a boot storm.
  if (!input.tpmChallengeId && !input.expireRequestId) {
    await insertNode(db, node);
  } else {
    await db.$transaction(async (tx) => {
      if (input.tpmChallengeId) await useTpmChallenge(tx, input.tpmChallengeId, now);
      if (input.expireRequestId) await markJoinRequestExpired(tx, { requestId: input.expireRequestId, actor: credential.actor, now });
      await insertNode(tx, node);
    });
  }
  return { status: "admitted", nodeId, certificate: certificate.pem, caCertificate: ca.certificatePem };
}

/**
 * The retry of an approved request: the approval is consumed by one
 * conditional update (consumeApproval) with the node in its transaction, so
 * of any number of concurrent retries exactly one admits a node; the others
 * get INVALID_STATE. The certificate certifies what was approved: the
 * request's stored hostname (the caller checks it is still free, SPEC F3);
 * the machine's earlier active node is revoked in the same transaction (F2)
 * when the request was deferred for it, else the consumption is refused (G7).
 */
export async function admitApprovedNode(input: {
  db: Db;
  credential: JoinCredential;
  pool: PoolFacts;
  request: JoinRequest;
  csr: VerifiedCsr;
  /** SPEC I3: the AK this CSR's join proved, presented again by the retry (provenAkOf) */
  tpmAkPublic?: Buffer;
  now: Date;
}): Promise<Admitted> {
  const { db, credential, pool, request, csr, now } = input;
  const { ca, certificate, nodeId } = await signFor(db, request.tenantId, csr, request.hostname, now);
  const machine: MachineFacts = {
    hostname: request.hostname,
    systemUuid: request.systemUuid,
    serialNumber: request.serialNumber,
    macAddresses: request.macAddresses,
    tpmEkSha256: request.tpmEkSha256,
    tpmEkProven: request.tpmEkProven,
  };
  await consumeApproval({
    db,
    pool,
    requestId: request.id,
    actor: credential.actor,
    now,
    admit: async (tx, consumed) => {
      await revokeReplacedNodes(tx, { request: consumed, nodeId, actor: credential.actor, now });
      await insertNode(tx, {
        nodeId,
        tenantId: consumed.tenantId,
        siteId: consumed.siteId,
        poolId: pool.id,
        machine,
        csrSha256: csr.sha256,
        joinRequestId: consumed.id,
        credential,
        certificate,
        tpmAkPublic: input.tpmAkPublic ?? null,
        now,
      });
    },
  });
  return { status: "admitted", nodeId, certificate: certificate.pem, caCertificate: ca.certificatePem };
}
