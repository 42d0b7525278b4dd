/** A pool as a console page heads it: its facts and what the signed-in principal may do there. */
export interface ConsolePool {
  id: string;
  tenantId: string;
  siteId: string;
  requiresTpm: boolean;
  archivedAt: Date | null;
  name: string;
  tenantName: string;
  siteName: string;
  canDecide: boolean;
  /** holds compute:attestation:manage on the pool's tenant (SPEC E2) */
  canManageAttestation: boolean;
}
