import "server-only";
import type { Db } from "../db/client";
import type { Principal } from "../auth/principal";
import { DECIDE_PERMISSION, grantAllows, grantAllowsTenantWide } from "../auth/roles";
import type { ConsolePool } from "@/lib/pools/console-pool";

/**
 * A pool by id (ids are unique across the control plane, so the tenant is
 * derived from it) if the principal may read it; null when it does not exist
 * *or* is not theirs, so a page cannot tell the two apart (AIP-211).
 */
export async function findPoolForPrincipal(input: { db: Db; principal: Principal; poolId: string }): Promise<ConsolePool | null> {
  const { db, principal, poolId } = input;
  // Decided before the lookup: without a grant naming a tenant that could own it, nothing is read.
  if (!principal.grants.some((grant) => grant.poolId === null || grant.poolId === poolId)) return null;
  const pool = await db.pool.findUnique({
    where: { id: poolId },
    select: {
      id: true,
      name: true,
      tenantId: true,
      siteId: true,
      requiresTpm: true,
      requireKnownBoot: true,
      approvalsRequired: true,
      notifyDefault: true,
      escalateAfterMinutes: true,
      escalationEmails: true,
      archivedAt: true,
      site: { select: { name: true } },
      tenant: { select: { name: true } },
    },
  });
  if (!pool) return null;
  const allows = (
    permission: "compute:join-tokens:read" | "compute:join-tokens:create" | "compute:pools:manage" | "compute:approval-rules:manage",
  ) => principal.grants.some((grant) => grantAllows(grant, permission, pool.tenantId, pool.id));
  if (!allows("compute:join-tokens:read")) return null;
  return {
    id: pool.id,
    name: pool.name,
    tenantId: pool.tenantId,
    tenantName: pool.tenant.name,
    siteId: pool.siteId,
    siteName: pool.site.name,
    requiresTpm: pool.requiresTpm,
    requireKnownBoot: pool.requireKnownBoot,
    approvalsRequired: pool.approvalsRequired,
    notifyDefault: pool.notifyDefault,
    escalateAfterMinutes: pool.escalateAfterMinutes,
    escalationEmails: pool.escalationEmails,
    archivedAt: pool.archivedAt,
    principalId: principal.id,
    canDecide: allows(DECIDE_PERMISSION),
    canManagePool: allows("compute:pools:manage"),
    canManageRules: allows("compute:approval-rules:manage"),
    canManageAttestation: principal.grants.some((grant) => grantAllowsTenantWide(grant, "compute:attestation:manage", pool.tenantId)),
  };
}
