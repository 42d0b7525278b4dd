"use client";
import { toast } from "@/components/ui/toast";
import { useApproveJoinRequestMutation } from "@/data/join-requests/approve-join-request-mutation";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { approvalEffectText, approvalProgress, approvalRecordedText } from "@/lib/join-requests/approval-progress";
import { formatDuration } from "@/lib/time/format-duration";
import { useNow } from "@/lib/time/use-now";
import { DialogCancel, DialogFooter, ModalDialog } from "@/components/ui/dialog";
import { DecisionError } from "./decision-error";
import { ReasonField } from "./reason-field";
import { TtlPicker } from "./ttl-picker";
import { useDecisionForm } from "./use-decision-form";
import type { QueuePool } from "./queue-pool";
import styles from "./decision-form.module.css";

export function ApproveDialog(props: { pool: QueuePool; request: JoinRequestJson; onClose: () => void; onSettled?: () => void }) {
  const { pool, request } = props;
  const form = useDecisionForm("approve", { tenantId: pool.tenantId, poolId: pool.id, requestId: request.id });
  const now = useNow();
  // SPEC H1: what this approval does, when the request needs more than one
  const progress = approvalProgress(request, pool.me, pool.approvalsRequired);
  const effect = progress.required > 1 ? approvalEffectText(progress) : null;
  const mutation = useApproveJoinRequestMutation({
    onSuccess: (approved) => {
      if (approved.state === "pending") {
        toast.success(approvalRecordedText(approved), {
          description: `${approved.machine.hostname} stays pending in ${pool.id} until the last approval it needs.`,
        });
      } else {
        toast.success(`Approved ${approved.machine.hostname}`, {
          description: `Its retry may join ${pool.id} until ${new Date(approved.expiresAt).toLocaleString()}.`,
        });
      }
      props.onSettled?.();
      props.onClose();
    },
    onError: (error) => {
      props.onSettled?.();
      toast.error(`Could not approve ${request.machine.hostname}`, { description: `${error.code}: ${error.message}` });
    },
  });
  const pending = mutation.isPending;
  if (progress.mine) return <ApprovedAlreadyDialog title={`Approve ${request.machine.hostname}`} effect={effect} onClose={props.onClose} />;

  return (
    <ModalDialog
      open
      onOpenChange={(open) => (open ? undefined : props.onClose())}
      pending={pending}
      title={`Approve ${request.machine.hostname}`}
      description={`Admits this machine's next join into pool ${pool.id}, once.${request.poolId === null ? " This unclaimed site request will be claimed by this pool." : ""}`}
      testId="approve-dialog"
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!form.submit() || form.ttlSeconds === null) return;
          mutation.mutate({
            tenantId: pool.tenantId,
            poolId: pool.id,
            requestId: request.id,
            ttlSeconds: form.ttlSeconds,
            reason: form.reasonValue,
          });
        }}
      >
        <DecisionError error={mutation.error} />
        {effect ? (
          <p className={styles.effect} data-testid="approval-effect">
            <strong>{effect}</strong>.
          </p>
        ) : null}
        <TtlPicker value={form.ttl} onChange={form.setTtl} error={form.ttlError} disabled={pending} />
        <ReasonField label="Reason (optional)" value={form.reason} onChange={form.setReason} error={form.reasonError} disabled={pending} />
        <p className={styles.expiry} data-testid="expiry-preview" aria-live="polite">
          {form.ttlSeconds !== null && progress.afterMine > 0 ? (
            // SPEC H1: the last approval approves it, with the smallest time to live asked for
            <>
              You ask for <strong>{formatDuration(form.ttlSeconds * 1000)}</strong>: once the last approval it needs is given, it is
              approved for the smallest time to live its approvers asked for.
            </>
          ) : form.ttlSeconds !== null ? (
            <>
              The approval expires at <strong>{new Date(now + form.ttlSeconds * 1000).toLocaleString()}</strong> (in{" "}
              {formatDuration(form.ttlSeconds * 1000)}).
            </>
          ) : (
            "Choose a valid time to live to see when the approval expires."
          )}
        </p>
        <DialogFooter>
          <DialogCancel pending={pending} />
          <button type="submit" className="button button-primary" disabled={pending}>
            {pending ? "Approving…" : "Approve"}
          </button>
        </DialogFooter>
      </form>
    </ModalDialog>
  );
}

/** SPEC H1: the signed-in principal approved already; approving again would answer the request unchanged, so nothing is offered. */
function ApprovedAlreadyDialog(props: { title: string; effect: string | null; onClose: () => void }) {
  return (
    <ModalDialog
      open
      onOpenChange={(open) => (open ? undefined : props.onClose())}
      pending={false}
      title={props.title}
      description="Approving again would change nothing."
      testId="approve-dialog"
    >
      <p className={styles.effect} data-testid="approval-effect">
        <strong>{props.effect}</strong>.
      </p>
      <DialogFooter>
        <DialogCancel pending={false}>Close</DialogCancel>
      </DialogFooter>
    </ModalDialog>
  );
}
