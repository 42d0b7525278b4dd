import "server-only";
import { findTenant } from "../../places/find-site";
import type { Db } from "../../db/client";
import { ApiError } from "../../api/errors";
import { AdminError, parseAdminInput, type AdminOutcome } from "../../admin/admin-error";
import { recordAdminChange, type AdminActor } from "../../admin/record-admin-change";
import { readEndorsementKeyField } from "../../pki/machine-keys";
import { newId } from "@/lib/ids";
import { addTpmAllowedKeyInput, listTpmAllowedKeysInput, removeTpmAllowedKeyInput } from "@/lib/validations/attestation";

// A tenant's TPM allow-list (SPEC E3): endorsement keys by the SHA-256 of
// their DER SubjectPublicKeyInfo, computed by the same function as the join's.

const change = (tenantId: string, verb: string, ekSha256: string, actor: AdminActor, now: Date) => ({
  type: "compute.tpm-allow-list.changed" as const,
  actor,
  noun: "tpm",
  verb,
  tenantId,
  id: ekSha256,
  now,
  data: { ekSha256 },
});

/** Allows an endorsement key (a PEM, or its hash). Idempotent: already allowed → unchanged (the note kept). */
export async function addTpmAllowedKey(args: { db: Db; actor: AdminActor; now: Date; input: unknown }) {
  const input = parseAdminInput(addTpmAllowedKeyInput, args.input);
  // The same one reading of a key as the join's (SPEC G1), so an allowed hash is one a join can show.
  const ekSha256 = input.ekPublicKey === undefined ? input.ekSha256 : allowedKeySha256(input.ekPublicKey);
  const { tenantId, note } = input;
  return args.db.$transaction(async (tx) => {
    await findTenant(tx, tenantId);
    const { count } = await tx.tpmAllowedKey.createMany({
      data: [{ id: newId("tpmk", args.now.getTime()), tenantId, ekSha256: ekSha256!, note, createdAt: args.now }],
      skipDuplicates: true,
    });
    const outcome: AdminOutcome = count > 0 ? "created" : "unchanged";
    if (outcome === "created") await recordAdminChange(tx, change(tenantId, "allow", ekSha256!, args.actor, args.now));
    const key = await tx.tpmAllowedKey.findUniqueOrThrow({ where: { tenantId_ekSha256: { tenantId, ekSha256: ekSha256! } } });
    return { outcome, key: { ekSha256: key.ekSha256, note: key.note, createdAt: key.createdAt.toISOString() } };
  });
}

function allowedKeySha256(pem: string): string {
  try {
    return readEndorsementKeyField(pem, "ekPublicKey").sha256;
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "INVALID_ARGUMENT") throw error;
    throw new AdminError(error.message.replace(/^ekPublicKey /, "ekPublicKey: "), "INVALID_ARGUMENT", error.details);
  }
}

/** Takes an endorsement key off the allow-list: its next join is deferred again. */
export async function removeTpmAllowedKey(args: { db: Db; actor: AdminActor; now: Date; input: unknown }) {
  const { tenantId, ekSha256 } = parseAdminInput(removeTpmAllowedKeyInput, args.input);
  return args.db.$transaction(async (tx) => {
    const { count } = await tx.tpmAllowedKey.deleteMany({ where: { tenantId, ekSha256 } });
    if (count > 0) await recordAdminChange(tx, change(tenantId, "remove", ekSha256, args.actor, args.now));
    return { removed: count };
  });
}

/** The tenant's allowed endorsement keys by hash. */
export async function listTpmAllowedKeys(db: Db, input: unknown) {
  const { tenantId, limit, cursor } = parseAdminInput(listTpmAllowedKeysInput, input);
  const rows = await db.tpmAllowedKey.findMany({
    where: { tenantId, ...(cursor ? { ekSha256: { gt: cursor } } : {}) },
    select: { ekSha256: true, note: true, createdAt: true },
    orderBy: { ekSha256: "asc" },
    take: limit + 1,
  });
  const keys = rows.slice(0, limit).map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
  return rows.length > limit ? { keys, nextCursor: keys[keys.length - 1]!.ekSha256 } : { keys };
}
