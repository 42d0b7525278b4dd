import "server-only";
import type { Tx } from "../db/client";
import type { MachineFacts } from "../join-requests/create-join-request";
import type { NodeCertificate } from "../pki/issue-node-certificate";
import type { JoinCredential } from "./join-credential";
import { recordNodeEvent } from "../events/record-node-event";
import { hostnameKeyOf, uuidKeyOf } from "./node-identity-keys";

/**
 * Records an admission, in the caller's transaction: the node, its first
 * certificate, and its `compute.node.joined` event. One node per CSR
 * (nodes_csr_sha256_key) and per request (nodes_join_request_id_key); one
 * active node per machine and per hostname of a tenant (nodes_active_uuid_key,
 * nodes_active_hostname_key: a concurrent admission that lost is a unique
 * violation, and its join reads again).
 */
export async function insertNode(
  tx: Tx,
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
    now: Date;
  },
): Promise<void> {
  const { machine, credential, certificate } = input;
  await tx.node.create({
    data: {
      id: input.nodeId,
      tenantId: input.tenantId,
      siteId: input.siteId,
      poolId: input.poolId,
      hostname: machine.hostname,
      hostnameKey: hostnameKeyOf(machine.hostname),
      systemUuid: machine.systemUuid,
      uuidKey: uuidKeyOf(machine.systemUuid),
      serialNumber: machine.serialNumber,
      macAddresses: machine.macAddresses,
      tpmEkSha256: machine.tpmEkSha256,
      csrSha256: input.csrSha256,
      joinRequestId: input.joinRequestId,
      ...(credential.kind === "join-token" ? { joinTokenId: credential.id } : { enrollKeyId: credential.id }),
      certSerial: certificate.serial,
      certNotBefore: certificate.notBefore,
      certNotAfter: certificate.notAfter,
      certSha256: certificate.sha256,
      createdAt: input.now,
      certificates: { create: certificateRow(certificate) },
    },
  });
  const node = { id: input.nodeId, tenantId: input.tenantId, siteId: input.siteId, poolId: input.poolId };
  await recordNodeEvent(tx, {
    type: "compute.node.joined",
    node,
    actor: credential.actor,
    now: input.now,
    data: { joinRequestId: input.joinRequestId },
  });
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
