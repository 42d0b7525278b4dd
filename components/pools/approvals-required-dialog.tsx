"use client";
import { useState } from "react";
import { DecisionError } from "@/components/join-requests/decision-error";
import { DialogSaveFooter, ModalDialog } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toast";
import { useUpdatePoolMutation } from "@/data/pools/update-pool-mutation";
import { MAX_APPROVALS_REQUIRED } from "@/lib/validations/pools";

const CHOICES = Array.from({ length: MAX_APPROVALS_REQUIRED }, (_, index) => index + 1);

/**
 * pools/update's approvalsRequired (SPEC H1) in the queue's dialog
 * conventions: it cannot close while saving, and a failure shows inside it.
 */
export function ApprovalsRequiredDialog(props: {
  tenantId: string;
  poolId: string;
  approvalsRequired: number;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [count, setCount] = useState(props.approvalsRequired);
  const mutation = useUpdatePoolMutation(props.poolId, {
    onSuccess: (pool) => {
      toast.success(`${pool.id} requires ${pool.approvalsRequired} approval${pool.approvalsRequired === 1 ? "" : "s"}`);
      props.onClose();
      props.onSaved();
    },
  });
  const pending = mutation.isPending;
  return (
    <ModalDialog
      open
      onOpenChange={(open) => (open ? undefined : props.onClose())}
      pending={pending}
      title={`Approvals required in ${props.poolId}`}
      description="How many distinct people or service keys must approve a join request of this pool before its machine may join. Requests already waiting keep the count they were deferred with."
      testId="approvals-required-dialog"
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          mutation.mutate({ tenantId: props.tenantId, poolId: props.poolId, approvalsRequired: count });
        }}
      >
        <DecisionError error={mutation.error} />
        <label className="field">
          Approvals required
          <select value={count} onChange={(event) => setCount(Number(event.target.value))} disabled={pending}>
            {CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
        </label>
        <DialogSaveFooter pending={pending} />
      </form>
    </ModalDialog>
  );
}
