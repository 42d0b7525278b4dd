import "server-only";
import { ApiError } from "../api/errors";
import type { Db } from "../db/client";
import type { Principal } from "../auth/principal";
import { PERMISSIONS_BY_ROLE, type Permission } from "../auth/roles";
import { NODE_JSON_SELECT } from "./node-rows";

/**
 * SPEC D1 on compute-node/{nodeId}, after authentication and validation: a
 * caller with no grant that could cover the node is PERMISSION_DENIED whether
 * or not it exists, and so is a pool-scoped caller asking for a node outside
 * its pools (it must not learn that the node exists elsewhere); with a
 * covering tenant-wide grant, a node that does not exist, or is another
 * tenant's, is NOT_FOUND.
 */
export async function findNodeForPrincipal(db: Db, principal: Principal, permission: Permission, tenantId: string, nodeId: string) {
  const grants = principal.grants.filter((grant) => grant.tenantId === tenantId && PERMISSIONS_BY_ROLE[grant.role].includes(permission));
  const denied = () => new ApiError("PERMISSION_DENIED", `the caller lacks ${permission} on compute-node/${nodeId} in tenant ${tenantId}`);
  if (grants.length === 0) throw denied();
  const node = await db.node.findFirst({ where: { id: nodeId, tenantId }, select: NODE_JSON_SELECT });
  if (node && grants.some((grant) => grant.poolId === null || grant.poolId === node.poolId)) return node;
  if (!node && grants.some((grant) => grant.poolId === null))
    throw new ApiError("NOT_FOUND", `node ${nodeId} not found in tenant ${tenantId}`);
  throw denied();
}
