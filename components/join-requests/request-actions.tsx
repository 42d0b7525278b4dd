"use client";
import { useRouter } from "next/navigation";
import { lazy, Suspense, useState } from "react";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import type { BootState } from "@/lib/pools/boot-states";
import { discoveredMachineInput } from "@/lib/validations/attestation";
import type { QueuePool } from "./queue-pool";
import { approveUnavailable } from "./approve-unavailable";
import { myApprovalWaiting } from "./my-approval";
import styles from "./request-detail.module.css";

const ApproveDialog = lazy(() => import("./approve-dialog").then((m) => ({ default: m.ApproveDialog })));
const RejectDialog = lazy(() => import("./reject-dialog").then((m) => ({ default: m.RejectDialog })));
const TeachAndApproveDialog = lazy(() => import("./teach-and-approve-dialog").then((m) => ({ default: m.TeachAndApproveDialog })));

/**
 * The detail page's decisions. The page is server-rendered, so it refreshes
 * after a decision, and after a failed one too (someone else decided first).
 */
export function RequestActions({
  pool,
  request,
  bootStates,
}: {
  pool: QueuePool;
  request: JoinRequestJson;
  /** SPEC I2: the pool's known boot states, given only to those who may change them (pools/update) */
  bootStates?: readonly BootState[];
}) {
  const router = useRouter();
  const [open, setOpen] = useState<"approve" | "reject" | "machine" | "tpm" | "boot" | null>(null);
  if (!pool.canDecide) return null;
  const blocked = request.state === "pending" ? approveUnavailable(pool, request) : null;
  // SPEC H1: approving again changes nothing, so it is not offered; the request waits for others
  const mine = myApprovalWaiting(pool, request);
  const approvable = request.state === "pending" && !pool.archived && blocked === null && mine === null;
  const { machine } = request;
  // Offered for the deferrals they answer, to those who may manage the attestors' knowledge,
  // and only when the inventory could hold what the machine reported (a real UUID, a MAC).
  const trustable = discoveredMachineInput.safeParse({
    systemUuid: machine.systemUuid,
    macAddresses: machine.macAddresses,
    assignedPoolId: null,
  }).success;
  const canTrust = approvable && pool.canManageAttestation && request.reasons.includes("unknown-to-discovery") && trustable;
  const canAllowTpm =
    approvable && pool.canManageAttestation && request.reasons.includes("tpm-ek-not-allowed") && machine.tpmEkSha256 !== null;
  const canTrustBoot =
    approvable &&
    pool.canManageAttestation &&
    bootStates !== undefined &&
    request.reasons.includes("boot-state-unknown") &&
    request.bootMeasurement !== null;
  const live = request.state === "pending" || request.state === "approved";
  const close = () => setOpen(null);
  const refresh = () => router.refresh();
  return (
    <div className={styles.actions}>
      {blocked ? (
        <p className={styles.unavailable} data-testid="approve-unavailable">
          Approve is unavailable: {blocked}.
        </p>
      ) : null}
      {mine ? (
        <p className={styles.unavailable} data-testid="approved-by-me">
          {mine}.
        </p>
      ) : null}
      {approvable ? (
        <button type="button" className="button button-primary" onClick={() => setOpen("approve")}>
          Approve…
        </button>
      ) : null}
      {canTrust ? (
        <button type="button" className="button" onClick={() => setOpen("machine")}>
          Trust this machine…
        </button>
      ) : null}
      {canAllowTpm ? (
        <button type="button" className="button" onClick={() => setOpen("tpm")}>
          Allow this TPM…
        </button>
      ) : null}
      {canTrustBoot ? (
        <button type="button" className="button" onClick={() => setOpen("boot")}>
          Trust this boot state…
        </button>
      ) : null}
      {live ? (
        <button type="button" className="button" onClick={() => setOpen("reject")}>
          {request.state === "approved" ? "Withdraw approval…" : "Reject…"}
        </button>
      ) : null}
      <Suspense fallback={null}>
        {open === "approve" ? <ApproveDialog pool={pool} request={request} onClose={close} onSettled={refresh} /> : null}
        {open === "reject" ? <RejectDialog pool={pool} request={request} onClose={close} onSettled={refresh} /> : null}
        {open === "machine" || open === "tpm" || open === "boot" ? (
          <TeachAndApproveDialog kind={open} pool={pool} request={request} bootStates={bootStates} onClose={close} onSettled={refresh} />
        ) : null}
      </Suspense>
    </div>
  );
}
