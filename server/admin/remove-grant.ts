import "server-only";
import type { Db } from "../db/client";
import { roleFromName } from "../auth/roles";
import { grantInput } from "@/lib/validations/admin";
import { AdminError, parseAdminInput } from "./admin-error";
import { lockGrantSubject } from "./grant-subject";
import { recordAdminChange, type AdminActor } from "./record-admin-change";

/**
 * Takes a grant away. Access ends at the subject's next request: every call
 * reads the grants afresh. A grant that is not there is an error (a typo in
 * the pool or role should not pass for success).
 */
export async function removeGrant(args: { db: Db; actor: AdminActor; now: Date; input: unknown }) {
  const { tenantId, subject, role: roleName, poolId } = parseAdminInput(grantInput, args.input);
  return args.db.$transaction(async (tx) => {
    const resolved = await lockGrantSubject(tx, tenantId, subject);
    const grants = await tx.roleGrant.findMany({
      where: { tenantId, poolId, role: roleFromName(roleName), ...resolved.where },
      select: { id: true },
    });
    const scope = poolId ? `pool ${poolId}` : `every pool of ${tenantId}`;
    if (grants.length === 0) throw new AdminError(`${resolved.label} holds no ${roleName} grant on ${scope}; nothing changed`, "NOT_FOUND");
    await tx.roleGrant.deleteMany({ where: { id: { in: grants.map((grant) => grant.id) } } });
    const pool = poolId ? await tx.pool.findFirst({ where: { id: poolId, tenantId }, select: { siteId: true } }) : null;
    await recordAdminChange(tx, {
      actor: args.actor,
      noun: "grant",
      verb: "remove",
      tenantId,
      siteId: pool?.siteId,
      poolId,
      id: grants[0]!.id,
      now: args.now,
      data: { subject: resolved.label, role: roleName },
    });
    return { outcome: "changed" as const, removed: grants.length };
  });
}
