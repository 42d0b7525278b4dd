import "server-only";
import { findTenant } from "../places/find-site";
import { randomBytes } from "node:crypto";
import type { Db } from "../db/client";
import { generateSecret, hashSecret } from "../auth/credentials";
import { createServiceKeyInput } from "@/lib/validations/admin";
import { parseAdminInput } from "./admin-error";
import { insertOrCompare } from "./insert-or-compare";
import { recordAdminChange, type AdminActor } from "./record-admin-change";

/**
 * Creates a service key of a tenant. The bearer `bcsk_<id>.<secret>` is
 * returned only when the key is made (only SHA-256 of the secret is stored);
 * the same key again (same id, tenant and name) changes nothing and cannot
 * show the secret again. It has no access until a grant is added.
 * `secret` is for the demo seed's published credentials only.
 */
export async function createServiceKey(args: { db: Db; actor: AdminActor; now: Date; input: unknown; secret?: string }) {
  const { tenantId, name, ...input } = parseAdminInput(createServiceKeyInput, args.input);
  const id = input.id ?? randomBytes(10).toString("hex");
  const secret = args.secret ?? generateSecret();
  return args.db.$transaction(async (tx) => {
    await findTenant(tx, tenantId);
    const result = await insertOrCompare({
      describe: `service key bcsk_${id}`,
      insert: async () =>
        (
          await tx.serviceKey.createMany({
            data: [{ id, tenantId, name, secretHash: hashSecret(secret), createdAt: args.now }],
            skipDuplicates: true,
          })
        ).count,
      read: () =>
        tx.serviceKey.findUnique({ where: { id }, select: { id: true, tenantId: true, name: true, createdAt: true, revokedAt: true } }),
      differences: (key) => [
        ...(key.tenantId === tenantId ? [] : [`another tenant (${key.tenantId})`]),
        ...(key.name === name ? [] : [`the name "${key.name}"`]),
        ...(key.revokedAt ? ["revoked"] : []),
      ],
    });
    if (result.outcome !== "created") return { outcome: result.outcome, serviceKey: result.row, bearer: null };
    await recordAdminChange(tx, {
      actor: args.actor,
      noun: "service-key",
      verb: "create",
      tenantId,
      id: `bcsk_${id}`,
      now: args.now,
      data: { name },
    });
    return { outcome: result.outcome, serviceKey: result.row, bearer: `bcsk_${id}.${secret}` };
  });
}
