// The overview's pools, grouped by site, as the principal may see them.

export interface PoolSummary {
  id: string;
  name: string;
  tenantId: string;
  siteId: string;
  archived: boolean;
  requiresTpm: boolean;
  /** the principal may approve and reject here */
  canDecide: boolean;
  /** live pending requests the pool owns */
  pendingOwn: number;
  /** what its queue shows as pending: its own and its site's unclaimed ones */
  pendingEffective: number;
}

export interface SiteSummary {
  id: string;
  name: string;
  tenantId: string;
  tenantName: string;
  /** live pending requests no pool has claimed yet */
  unclaimedPending: number;
  pools: PoolSummary[];
}
