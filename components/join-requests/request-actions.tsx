"use client";
import { useRouter } from "next/navigation";
import { lazy, Suspense, useState } from "react";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import type { QueuePool } from "./queue-pool";
import styles from "./request-detail.module.css";

const ApproveDialog = lazy(() => import("./approve-dialog").then((m) => ({ default: m.ApproveDialog })));
const RejectDialog = lazy(() => import("./reject-dialog").then((m) => ({ default: m.RejectDialog })));

/**
 * The detail page's decisions. The page is server-rendered, so it refreshes
 * after a decision, and after a failed one too (someone else decided first).
 */
export function RequestActions({ pool, request }: { pool: QueuePool; request: JoinRequestJson }) {
  const router = useRouter();
  const [open, setOpen] = useState<"approve" | "reject" | null>(null);
  if (!pool.canDecide) return null;
  const live = request.state === "pending" || request.state === "approved";
  const close = () => setOpen(null);
  const refresh = () => router.refresh();
  return (
    <div className={styles.actions}>
      {request.state === "pending" && !pool.archived ? (
        <button type="button" className="button button-primary" onClick={() => setOpen("approve")}>Approve…</button>
      ) : null}
      {live ? (
        <button type="button" className="button" onClick={() => setOpen("reject")}>
          {request.state === "approved" ? "Withdraw approval…" : "Reject…"}
        </button>
      ) : null}
      <Suspense fallback={null}>
        {open === "approve" ? <ApproveDialog pool={pool} request={request} onClose={close} onSettled={refresh} /> : null}
        {open === "reject" ? <RejectDialog pool={pool} request={request} onClose={close} onSettled={refresh} /> : null}
      </Suspense>
    </div>
  );
}
