"use client";
import { lazy, Suspense } from "react";
import type { BulkDecision } from "@/data/join-requests/decide-join-requests-mutation";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import type { QueuePool } from "./queue-pool";
import type { RowAction } from "./row-action";

// The dialogs (Radix, zod and the shared schemas, the toasts) load when first opened.
const ApproveDialog = lazy(() => import("./approve-dialog").then((m) => ({ default: m.ApproveDialog })));
const RejectDialog = lazy(() => import("./reject-dialog").then((m) => ({ default: m.RejectDialog })));
const BulkDecisionDialog = lazy(() => import("./bulk-decision-dialog").then((m) => ({ default: m.BulkDecisionDialog })));

/** The bulk dialog keeps the rows it was opened with: its results outlive the selection. */
export type OpenDialog = RowAction | { kind: "bulk"; decision: BulkDecision; requests: JoinRequestJson[] } | null;

/** The dialog a row, a key or the bulk bar opened, if any; a boundary of its own, so loading one never hides the rows. */
export function QueueDialogs(props: { pool: QueuePool; dialog: OpenDialog; onClose: () => void; onBulkDone: () => void }) {
  const { pool, dialog, onClose } = props;
  return (
    <Suspense fallback={null}>
      {dialog?.kind === "approve" ? <ApproveDialog pool={pool} request={dialog.request} onClose={onClose} /> : null}
      {dialog?.kind === "reject" ? <RejectDialog pool={pool} request={dialog.request} onClose={onClose} /> : null}
      {dialog?.kind === "bulk" ? (
        <BulkDecisionDialog pool={pool} decision={dialog.decision} requests={dialog.requests} onClose={onClose} onDone={props.onBulkDone} />
      ) : null}
    </Suspense>
  );
}
