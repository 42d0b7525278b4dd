"use client";
import { toast } from "@/components/ui/toast";
import { useRejectJoinRequestMutation } from "@/data/join-requests/reject-join-request-mutation";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { DialogCancel, DialogFooter, ModalDialog } from "@/components/ui/dialog";
import { DecisionError } from "./decision-error";
import { ReasonField } from "./reason-field";
import { useDecisionForm } from "./use-decision-form";
import type { QueuePool } from "./queue-pool";

/** Rejects a pending request, or, for an approved one, withdraws the approval. */
export function RejectDialog(props: { pool: QueuePool; request: JoinRequestJson; onClose: () => void; onSettled?: () => void }) {
  const { pool, request } = props;
  const withdraw = request.state === "approved";
  const form = useDecisionForm("reject", { tenantId: pool.tenantId, poolId: pool.id, requestId: request.id });
  const mutation = useRejectJoinRequestMutation({
    onSuccess: (rejected) => {
      toast.success(withdraw ? `Withdrew the approval of ${rejected.machine.hostname}` : `Rejected ${rejected.machine.hostname}`);
      props.onSettled?.();
      props.onClose();
    },
    onError: (error) => {
      props.onSettled?.();
      toast.error(`Could not ${withdraw ? "withdraw the approval of" : "reject"} ${request.machine.hostname}`, {
        description: `${error.code}: ${error.message}`,
      });
    },
  });
  const pending = mutation.isPending;
  const verb = withdraw ? "Withdraw approval" : "Reject";

  return (
    <ModalDialog
      open
      onOpenChange={(open) => (open ? undefined : props.onClose())}
      pending={pending}
      title={withdraw ? `Withdraw the approval of ${request.machine.hostname}` : `Reject ${request.machine.hostname}`}
      description={
        withdraw
          ? "The machine has not used this approval yet. Withdrawing it rejects the request: the machine's next retry with this CSR fails."
          : "The machine's retries with this CSR will fail. It can only join again with a new key and a new request."
      }
      testId="reject-dialog"
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!form.submit()) return;
          mutation.mutate({ tenantId: pool.tenantId, poolId: pool.id, requestId: request.id, reason: form.reasonValue });
        }}
      >
        <DecisionError error={mutation.error} />
        <ReasonField
          label="Reason (optional, recorded with the decision)"
          value={form.reason}
          onChange={form.setReason}
          error={form.reasonError}
          disabled={pending}
        />
        <DialogFooter>
          <DialogCancel pending={pending} />
          <button type="submit" className="button button-danger" disabled={pending}>
            {pending ? (withdraw ? "Withdrawing…" : "Rejecting…") : verb}
          </button>
        </DialogFooter>
      </form>
    </ModalDialog>
  );
}
