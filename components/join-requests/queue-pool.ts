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
  /** the signed-in principal's id, as a request's approvals name it (SPEC H1) */
  me: string;
  /** the pool's approvals required: what an unclaimed site request needs when this pool decides it (SPEC H1) */
  approvalsRequired: number;
  /** labels (an email, a key's name) for the principals approvals may name; others show as their id */
  approverNames: Readonly<Record<string, string>>;
}

/** The queue's view of a pool the page read (one mapping for the queue and the request page). */
export function queuePoolOf(
  pool: {
    id: string;
    tenantId: string;
    siteId: string;
    archivedAt: Date | null;
    requiresTpm: boolean;
    canDecide: boolean;
    principalId: string;
    approvalsRequired: number;
  },
  approverNames: Readonly<Record<string, string>> = {},
): QueuePool {
  return {
    id: pool.id,
    tenantId: pool.tenantId,
    siteId: pool.siteId,
    archived: pool.archivedAt !== null,
    requiresTpm: pool.requiresTpm,
    canDecide: pool.canDecide,
    me: pool.principalId,
    approvalsRequired: pool.approvalsRequired,
    approverNames,
  };
}
