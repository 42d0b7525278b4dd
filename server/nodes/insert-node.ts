import "server-only";
import type { Db, Tx } from "../db/client";
import { writeStatement } from "../db/write-statement";
import type { MachineFacts } from "../join-requests/create-join-request";
import type { NodeCertificate } from "../pki/issue-node-certificate";
import type { JoinCredential } from "./join-credential";
import { Prisma } from "../db/generated/client";
import { insertEventRowSql } from "../events/write-event";
import { nodeEventRow } from "../events/record-node-event";
import { hostnameKeyOf, uuidKeyOf } from "../attestation/attestors/node-identity-keys";

/**
 * Records an admission: the node, its first certificate, and its
 * `compute.node.joined` event, in one statement (so all or nothing, in the
 * caller's transaction or, given getDb's client, on its own). One node per CSR
 * of a tenant (nodes_tenant_id_csr_sha256_key, SPEC G8) and per request (nodes_join_request_id_key); one
 * active node per machine and per hostname of a tenant (nodes_active_uuid_key,
 * nodes_active_hostname_key: a concurrent admission that lost is a unique
 * violation, and its join reads again).
 */
export async function insertNode(
  client: Db | Tx,
  input: {
    nodeId: string;
    tenantId: string;
    siteId: string;
    poolId: string;
    machine: MachineFacts;
    csrSha256: string;
    joinRequestId: string | null;
    credential: JoinCredential;
    certificate: NodeCertificate;
    /** SPEC I3: the TPM2B_PUBLIC of the AK this join proved (F1), which the node's quotes must be signed by; null otherwise */
    tpmAkPublic: Buffer | null;
    now: Date;
  },
): Promise<void> {
  const { machine, credential, certificate, now } = input;
  const node = { id: input.nodeId, tenantId: input.tenantId, siteId: input.siteId, poolId: input.poolId };
  const event = nodeEventRow({
    type: "compute.node.joined",
    node,
    actor: credential.actor,
    now,
    data: { joinRequestId: input.joinRequestId },
  });
  const [joinTokenId, enrollKeyId] = credential.kind === "join-token" ? [credential.id, null] : [null, credential.id];
  // One statement: three Prisma calls here were three round trips inside the join's transaction.
  await writeStatement(
    client,
    Prisma.sql`
    WITH node AS (
      INSERT INTO nodes (id, tenant_id, site_id, pool_id, hostname, hostname_key, system_uuid, uuid_key, serial_number,
        mac_addresses, tpm_ek_sha256, tpm_ek_proven, tpm_ak_public, csr_sha256, join_request_id, join_token_id, enroll_key_id,
        cert_serial, cert_not_before, cert_not_after, cert_sha256, created_at)
      VALUES (${node.id}, ${node.tenantId}, ${node.siteId}, ${node.poolId}, ${machine.hostname}, ${hostnameKeyOf(machine.hostname)},
        ${machine.systemUuid}, ${uuidKeyOf(machine.systemUuid)}, ${machine.serialNumber}, ${machine.macAddresses}::text[],
        ${machine.tpmEkSha256}, ${machine.tpmEkProven}, ${input.tpmAkPublic}, ${input.csrSha256}, ${input.joinRequestId}, ${joinTokenId}, ${enrollKeyId},
        ${certificate.serial}, ${certificate.notBefore}, ${certificate.notAfter}, ${certificate.sha256}, ${now})
      RETURNING id
    ), certificate AS (
      INSERT INTO node_certificates (node_id, serial, not_before, not_after, sha256, public_key)
      SELECT id, ${certificate.serial}, ${certificate.notBefore}, ${certificate.notAfter}, ${certificate.sha256}, ${certificate.publicKeyDer}
      FROM node
    )
    ${insertEventRowSql(event, Prisma.sql`node`)}`,
  );
}

/** A node_certificates row: what verifies the node's JWTs until notAfter (SPEC D2). */
export function certificateRow(certificate: NodeCertificate) {
  return {
    serial: certificate.serial,
    notBefore: certificate.notBefore,
    notAfter: certificate.notAfter,
    sha256: certificate.sha256,
    publicKey: certificate.publicKeyDer,
  };
}
