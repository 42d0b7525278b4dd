import "server-only";
import type { Db } from "../db/client";
import { issueNodeCertificate } from "../pki/issue-node-certificate";
import { verifyCsr } from "../pki/machine-keys";
import { tenantCa } from "../pki/tenant-ca";
import { certificateRow } from "./insert-node";
import { refuseNodeCredential, type AuthenticatedNode } from "./authenticate-node";

export interface Renewed {
  nodeId: string;
  certificate: string;
  caCertificate: string;
}

/**
 * nodes/renew (SPEC D1): the way kubelets rotate theirs — a new CSR (a new
 * key is allowed), a new 30-day certificate for the node's hostname. The
 * previous certificate keeps verifying the node's JWTs until its notAfter,
 * so a daemon that has not switched yet is not locked out; older ones stop
 * counting (D2 names only the current and the previous one), which also
 * bounds the keys a JWT is tried against.
 *
 * Signed before the transaction (a CA failure writes nothing); the node's row
 * is locked so that concurrent renewals apply one after the other. Only the
 * newest certificate's key renews (SPEC G6, authenticateRenewingNode), and
 * the write holds only while that certificate is still the newest: of two
 * renewals signed with it at once, the second finds it superseded and is
 * refused, so an older renewal's certificate never lands after a newer one.
 */
export async function renewNodeCertificate(input: { db: Db; node: AuthenticatedNode; csrPem: string; now: Date }): Promise<Renewed> {
  const { db, node, csrPem, now } = input;
  const csr = await verifyCsr(csrPem);
  const ca = await tenantCa(db, node.tenantId, now);
  const certificate = await issueNodeCertificate({ ca, publicKey: csr.publicKey, hostname: node.hostname, now });
  await db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ state: string; certSerial: string }[]>`
      SELECT state::text AS state, cert_serial AS "certSerial" FROM nodes WHERE id = ${node.id} FOR UPDATE`;
    // revoked, or renewed by another call, since its JWT was verified: the same answer as any refused credential
    if (locked?.state !== "active") throw refuseNodeCredential("revoked", node.id);
    if (locked.certSerial !== node.certificateSerial) throw refuseNodeCredential("superseded-certificate", node.id);
    await tx.nodeCertificate.deleteMany({ where: { nodeId: node.id, serial: { not: locked.certSerial } } });
    await tx.nodeCertificate.create({ data: { nodeId: node.id, ...certificateRow(certificate) } });
    await tx.node.update({
      where: { id: node.id },
      data: {
        certSerial: certificate.serial,
        certNotBefore: certificate.notBefore,
        certNotAfter: certificate.notAfter,
        certSha256: certificate.sha256,
      },
    });
  });
  return { nodeId: node.id, certificate: certificate.pem, caCertificate: ca.certificatePem };
}
