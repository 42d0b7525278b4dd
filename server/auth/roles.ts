// Roles and the permissions they carry (SPEC B4, D1, E2).
import type { RoleName } from "@/lib/validations/admin";

export type Permission =
  | "compute:join-tokens:read"
  | "compute:join-tokens:create"
  | "compute:attestation:read"
  | "compute:attestation:manage"
  | "compute:nodes:read"
  | "compute:nodes:revoke"
  // SPEC H1: a pool's settings (its approvals required)
  | "compute:pools:manage"
  // SPEC H2: a pool's approval rules (pool-admin and tenant-admin)
  | "compute:approval-rules:manage";
export type Role = "pool_viewer" | "pool_admin" | "tenant_admin";

/** What a grant holds on each pool it covers. */
export const PERMISSIONS_BY_ROLE: Record<Role, readonly Permission[]> = {
  pool_viewer: ["compute:join-tokens:read", "compute:nodes:read"],
  pool_admin: [
    "compute:join-tokens:read",
    "compute:join-tokens:create",
    "compute:nodes:read",
    "compute:nodes:revoke",
    "compute:approval-rules:manage",
  ],
  tenant_admin: [
    "compute:join-tokens:read",
    "compute:join-tokens:create",
    "compute:nodes:read",
    "compute:nodes:revoke",
    "compute:pools:manage",
    "compute:approval-rules:manage",
  ],
};

/**
 * What a grant on every pool of the tenant holds beyond that: the attestors'
 * knowledge (sites' discovery inventories, the tenant's TPM allow-list) spans
 * pools, so only tenant-wide grants reach it (SPEC E2). tenant-admin is never
 * granted on one pool (the database refuses it).
 */
export const TENANT_WIDE_PERMISSIONS_BY_ROLE: Record<Role, readonly Permission[]> = {
  pool_viewer: ["compute:attestation:read"],
  pool_admin: ["compute:attestation:read"],
  tenant_admin: ["compute:attestation:read", "compute:attestation:manage"],
};

/** A role within one tenant, on every pool of it (poolId null) or on one pool. */
export interface Grant {
  tenantId: string;
  poolId: string | null;
  role: Role;
}

/** The permissions `grant` holds on what it covers. */
export function grantPermissions(grant: Grant): readonly Permission[] {
  return grant.poolId === null
    ? [...PERMISSIONS_BY_ROLE[grant.role], ...TENANT_WIDE_PERMISSIONS_BY_ROLE[grant.role]]
    : PERMISSIONS_BY_ROLE[grant.role];
}

/** Whether `grant` holds `permission` on compute-pool/{poolId} of `tenantId`. */
export function grantAllows(grant: Grant, permission: Permission, tenantId: string, poolId: string): boolean {
  return (
    grant.tenantId === tenantId &&
    (grant.poolId === null || grant.poolId === poolId) &&
    PERMISSIONS_BY_ROLE[grant.role].includes(permission)
  );
}

/**
 * What deciding a pool's join requests takes (joinRequests/approve and
 * reject): pool-admin on the pool or tenant-wide, or tenant-admin. The
 * notifications ask the same question of a user's grants.
 */
export const DECIDE_PERMISSION = "compute:join-tokens:create" satisfies Permission;

/** Whether one of `grants` may decide the join requests of `poolId`. */
export const mayDecide = (grants: readonly Grant[], tenantId: string, poolId: string): boolean =>
  grants.some((grant) => grantAllows(grant, DECIDE_PERMISSION, tenantId, poolId));

/** Whether `grant` holds `permission` on the whole tenant (compute-tenant/{tenantId}, and its sites). */
export function grantAllowsTenantWide(grant: Grant, permission: Permission, tenantId: string): boolean {
  return grant.tenantId === tenantId && grant.poolId === null && grantPermissions(grant).includes(permission);
}

/** "pool-admin" (how operators and documents spell a role) → "pool_admin" (as stored). */
export const roleFromName = (name: RoleName): Role => name.replace("-", "_") as Role;
export const roleName = (role: Role): RoleName => role.replace("_", "-") as RoleName;
