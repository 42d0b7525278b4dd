// Roles and the permissions they carry (SPEC B4).
export type Permission = "compute:join-tokens:read" | "compute:join-tokens:create";
export type Role = "pool_viewer" | "pool_admin";

export const PERMISSIONS_BY_ROLE: Record<Role, readonly Permission[]> = {
  pool_viewer: ["compute:join-tokens:read"],
  pool_admin: ["compute:join-tokens:read", "compute:join-tokens:create"],
};

/** A role within one tenant, on every pool of it (poolId null) or on one pool. */
export interface Grant {
  tenantId: string;
  poolId: string | null;
  role: Role;
}

export function grantAllows(grant: Grant, permission: Permission, tenantId: string, poolId: string): boolean {
  return (
    grant.tenantId === tenantId &&
    (grant.poolId === null || grant.poolId === poolId) &&
    PERMISSIONS_BY_ROLE[grant.role].includes(permission)
  );
}
