/** Which pool's rules a Rules page shows, and whether its reader may change them. */
export interface RulesScope {
  tenantId: string;
  poolId: string;
  /** holds compute:approval-rules:manage on the pool: may reorder, switch, edit and delete */
  canManage: boolean;
}
