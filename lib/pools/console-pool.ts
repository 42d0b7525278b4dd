import type { NotificationMode } from "@/lib/notifications/settings-schemas";

/** A pool as a console page heads it: its facts and what the signed-in principal may do there. */
export interface ConsolePool {
  id: string;
  tenantId: string;
  siteId: string;
  requiresTpm: boolean;
  /** SPEC I3: a node's attestation reads stale past the maximum age in this pool */
  requireKnownBoot: boolean;
  /** SPEC H1: distinct approvals a request deferred into this pool needs */
  approvalsRequired: number;
  archivedAt: Date | null;
  /** issue #39: what a decider who has not chosen hears, and the escalation (tenant-admins change them) */
  notifyDefault: NotificationMode;
  escalateAfterMinutes: number | null;
  escalationEmails: string[];
  name: string;
  tenantName: string;
  siteName: string;
  /** the signed-in principal's id, as approvals name it (`usr_…`) */
  principalId: string;
  canDecide: boolean;
  /** holds compute:pools:manage (tenant-admin): may change the pool's settings (SPEC H1) */
  canManagePool: boolean;
  /** holds compute:approval-rules:manage on the pool (pool-admin, tenant-admin): may change its approval rules (SPEC H2) */
  canManageRules: boolean;
  /** holds compute:attestation:manage on the pool's tenant (SPEC E2) */
  canManageAttestation: boolean;
}
