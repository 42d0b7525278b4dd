import "server-only";
import type { Db, Tx } from "../db/client";
import type { JoinRequest } from "../db/generated/client";
import { recordJoinRequestEvent } from "../events/record-event";
import { deferredApprovalsRequired } from "./deferred-approvals-required";
import { rulesEvaluatedAt } from "./rules-evaluated-at";
import { newId } from "@/lib/ids";
import type { JoinRequestReason } from "@/lib/join-requests/join-request-json";
import { PENDING_TTL_SECONDS } from "@/lib/join-requests/state-machine";

export interface MachineFacts {
  hostname: string;
  systemUuid: string;
  serialNumber: string;
  macAddresses: string[];
  /** only ever a proven EK's hash (SPEC G2); null: no TPM, or one not proven */
  tpmEkSha256: string | null;
  /** the EK was proven by credential activation in this join (SPEC F1) */
  tpmEkProven: boolean;
}

export interface NewJoinRequest {
  tenantId: string;
  siteId: string;
  poolId: string | null;
  reasons: JoinRequestReason[];
  machine: MachineFacts;
  csrSha256: string;
  credential: { joinTokenId: string } | { enrollKeyId: string };
  actor: string;
  now: Date;
  ttlSeconds?: number;
}

/**
 * Records a deferred join as a new pending request with its `created` event.
 * `poolId` null makes it an unclaimed site request.
 */
export async function createJoinRequest(input: NewJoinRequest & { db: Db }): Promise<JoinRequest> {
  const { db, ...request } = input;
  return db.$transaction((tx) => insertJoinRequest(tx, request));
}

/**
 * createJoinRequest within the caller's transaction (the machine's join
 * writes more in the same one). A second live request for the same CSR
 * of its tenant violates join_requests_tenant_live_csr_key (P2002).
 */
export async function insertJoinRequest(tx: Tx, input: NewJoinRequest): Promise<JoinRequest> {
  const { now, machine } = input;
  const expiresAt = new Date(now.getTime() + (input.ttlSeconds ?? PENDING_TTL_SECONDS) * 1000);
  const request = await tx.joinRequest.create({
    data: {
      id: newId("jreq", now.getTime()),
      tenantId: input.tenantId,
      siteId: input.siteId,
      poolId: input.poolId,
      state: "pending",
      reasons: input.reasons,
      ...machine,
      csrSha256: input.csrSha256,
      createdAt: now,
      expiresAt,
      ...input.credential,
      approvalsRequired: await deferredApprovalsRequired(tx, input.poolId),
      rulesEvaluatedAt: await rulesEvaluatedAt(tx, input),
    },
  });
  await recordJoinRequestEvent(tx, {
    type: "security.join-request.created",
    request,
    actor: input.actor,
    now,
    data: { reasons: input.reasons, expiresAt: expiresAt.toISOString() },
  });
  return request;
}
