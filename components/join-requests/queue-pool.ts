/** What the queue's client components know of their pool. */
export interface QueuePool {
  id: string;
  tenantId: string;
  siteId: string;
  archived: boolean;
  /** SPEC G2: takes only requests whose EK was proven */
  requiresTpm: boolean;
  canDecide: boolean;
  /** may teach the attestors (compute:attestation:manage, tenant-wide): "Trust this machine", "Allow this TPM" */
  canManageAttestation?: boolean;
}
