import "server-only";
import { findTenant } from "../places/find-site";
import type { Db } from "../db/client";
import { roleFromName } from "../auth/roles";
import { newId } from "@/lib/ids";
import { grantInput } from "@/lib/validations/admin";
import { AdminError, parseAdminInput, type AdminOutcome } from "./admin-error";
import { lockGrantSubject } from "./grant-subject";
import { recordAdminChange, type AdminActor } from "./record-admin-change";

/**
 * Grants a role within a tenant, on every pool of it (poolId null) or on one
 * pool. The same grant again changes nothing. tenant-admin is tenant-wide only
 * (refused by the input schema, and by the database).
 */
export async function addGrant(args: { db: Db; actor: AdminActor; now: Date; input: unknown }) {
  const { tenantId, subject, role: roleName, poolId } = parseAdminInput(grantInput, args.input);
  const role = roleFromName(roleName);
  return args.db.$transaction(async (tx) => {
    const resolved = await lockGrantSubject(tx, tenantId, subject);
    const pool = poolId ? await tx.pool.findFirst({ where: { id: poolId, tenantId }, select: { siteId: true } }) : null;
    if (poolId && !pool) throw new AdminError(`pool ${poolId} not found in tenant ${tenantId}`, "NOT_FOUND");
    await findTenant(tx, tenantId);
    const existing = await tx.roleGrant.findFirst({ where: { tenantId, poolId, role, ...resolved.where }, select: { id: true } });
    let outcome: AdminOutcome = "unchanged";
    let id = existing?.id;
    if (!existing) {
      id = newId("grant", args.now.getTime());
      await tx.roleGrant.create({ data: { id, tenantId, poolId, role, createdAt: args.now, ...resolved.where } });
      await recordAdminChange(tx, {
        actor: args.actor,
        noun: "grant",
        verb: "add",
        tenantId,
        siteId: pool?.siteId,
        poolId,
        id,
        now: args.now,
        data: { subject: resolved.label, role: roleName },
      });
      outcome = "created";
    }
    return { outcome, grant: { id: id!, tenantId, poolId, role: roleName, subject: resolved.label } };
  });
}
