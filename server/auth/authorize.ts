import "server-only";
import { ApiError } from "../api/errors";
import type { Principal } from "./principal";
import { grantAllows, grantAllowsTenantWide, type Permission } from "./roles";

/**
 * Decides `permission` on `compute-pool/{poolId}` within `tenantId`. Runs
 * before the pool is looked up, so a caller without a grant learns nothing
 * about whether the pool exists (SPEC B2, AIP-211).
 */
export function authorize(principal: Principal, permission: Permission, tenantId: string, poolId: string): void {
  if (principal.grants.some((grant) => grantAllows(grant, permission, tenantId, poolId))) return;
  throw new ApiError("PERMISSION_DENIED", `the caller lacks ${permission} on compute-pool/${poolId} in tenant ${tenantId}`);
}

/**
 * Decides `permission` on a resource above the pools (compute-site/{siteId},
 * compute-tenant/{tenantId}): only grants on every pool of the tenant reach
 * it (SPEC E2). Like `authorize`, before anything is looked up.
 */
export function authorizeTenantWide(principal: Principal, permission: Permission, tenantId: string, resource: string): void {
  if (principal.grants.some((grant) => grantAllowsTenantWide(grant, permission, tenantId))) return;
  throw new ApiError("PERMISSION_DENIED", `the caller lacks ${permission} on ${resource} in tenant ${tenantId}`);
}
