import "server-only";
import { findTenant } from "../../places/find-site";
import type { Db } from "../../db/client";
import { AdminError, parseAdminInput, type AdminOutcome } from "../../admin/admin-error";
import { recordAdminChange, type AdminActor } from "../../admin/record-admin-change";
import { newId } from "@/lib/ids";
import { PemFormatError } from "@/lib/pem/read-pem";
import { readTrustAnchor, type TrustAnchor } from "@/lib/tpm/trust-anchor";
import { listTpmTrustedRootsInput, tpmTrustedRootInput } from "@/lib/validations/attestation";
import type { TpmTrustedRootJson } from "@/lib/attestation/attestation-json";

// A tenant's TPM trust store (SPEC I1): manufacturer root certificates, by the
// SHA-256 of their DER. An EK certificate chaining to one allows the EK at the
// join as the allow-list does; requests already pending stay pending.

const change = (tenantId: string, verb: string, root: Pick<TrustAnchor, "sha256" | "subject">, actor: AdminActor, now: Date) => ({
  type: "compute.tpm-trust-store.changed" as const,
  actor,
  noun: "tpm-trust-ca",
  verb,
  tenantId,
  id: root.sha256,
  now,
  data: { sha256: root.sha256, subject: root.subject },
});

const ROOT_FIELDS = { sha256: true, subject: true, notBefore: true, notAfter: true, createdAt: true } as const;

const rootJson = (row: { sha256: string; subject: string; notBefore: Date; notAfter: Date; createdAt: Date }): TpmTrustedRootJson => ({
  sha256: row.sha256,
  subject: row.subject,
  notBefore: row.notBefore.toISOString(),
  notAfter: row.notAfter.toISOString(),
  createdAt: row.createdAt.toISOString(),
});

/** A 400 naming `certificate` for one that cannot be read or is no CA's. */
function readCertificateField(certificate: string): TrustAnchor {
  try {
    return readTrustAnchor(certificate);
  } catch (error) {
    if (!(error instanceof PemFormatError)) throw error;
    throw new AdminError(`certificate: ${error.message}`, "INVALID_ARGUMENT", [{ field: "certificate", message: error.message }]);
  }
}

/** Trusts a root certificate. Idempotent: already trusted → unchanged. */
export async function addTpmTrustedRoot(args: { db: Db; actor: AdminActor; now: Date; input: unknown }) {
  const { tenantId, certificate } = parseAdminInput(tpmTrustedRootInput, args.input);
  const root = readCertificateField(certificate);
  return args.db.$transaction(async (tx) => {
    await findTenant(tx, tenantId);
    const { count } = await tx.tpmTrustedRoot.createMany({
      data: [{ id: newId("tpmr", args.now.getTime()), tenantId, ...root, createdAt: args.now }],
      skipDuplicates: true,
    });
    const outcome: AdminOutcome = count > 0 ? "created" : "unchanged";
    if (outcome === "created") await recordAdminChange(tx, change(tenantId, "add", root, args.actor, args.now));
    const row = await tx.tpmTrustedRoot.findUniqueOrThrow({
      where: { tenantId_sha256: { tenantId, sha256: root.sha256 } },
      select: ROOT_FIELDS,
    });
    return { outcome, root: rootJson(row) };
  });
}

/** Stops trusting a root: EK certificates under it no longer allow an EK at the next join. */
export async function removeTpmTrustedRoot(args: { db: Db; actor: AdminActor; now: Date; input: unknown }) {
  const { tenantId, certificate } = parseAdminInput(tpmTrustedRootInput, args.input);
  const root = readCertificateField(certificate);
  return args.db.$transaction(async (tx) => {
    const { count } = await tx.tpmTrustedRoot.deleteMany({ where: { tenantId, sha256: root.sha256 } });
    if (count > 0) await recordAdminChange(tx, change(tenantId, "remove", root, args.actor, args.now));
    return { removed: count };
  });
}

/** The tenant's trusted roots by fingerprint, with subject and validity. */
export async function listTpmTrustedRoots(db: Db, input: unknown) {
  const { tenantId, limit, cursor } = parseAdminInput(listTpmTrustedRootsInput, input);
  const rows = await db.tpmTrustedRoot.findMany({
    where: { tenantId, ...(cursor ? { sha256: { gt: cursor } } : {}) },
    select: ROOT_FIELDS,
    orderBy: { sha256: "asc" },
    take: limit + 1,
  });
  const roots = rows.slice(0, limit).map(rootJson);
  return rows.length > limit ? { roots, nextCursor: roots[roots.length - 1]!.sha256 } : { roots };
}

/** The PEMs the `tpm` attestor validates EK certificates against (SPEC I1). */
export async function trustedRootPems(db: Db, tenantId: string): Promise<string[]> {
  const rows = await db.tpmTrustedRoot.findMany({ where: { tenantId }, select: { pem: true }, orderBy: { sha256: "asc" } });
  return rows.map((row) => row.pem);
}
