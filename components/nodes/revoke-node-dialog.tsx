"use client";
import { useState } from "react";
import { DecisionError } from "@/components/join-requests/decision-error";
import { ReasonField } from "@/components/join-requests/reason-field";
import { DialogCancel, DialogFooter, ModalDialog } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toast";
import { useRevokeNodeMutation } from "@/data/nodes/revoke-node-mutation";
import type { NodeJson } from "@/lib/nodes/node-json";
import { revokeNodeInput } from "@/lib/validations/nodes";
import { parseInput } from "@/lib/validations/parse-input";

/**
 * nodes/revoke with a reason, in the queue's dialog conventions (cannot close
 * while pending, a failure is shown inside it). The reason is judged by the
 * server's own schema before it is sent. Loaded only when opened: it brings
 * zod and the dialog into the page.
 */
export function RevokeNodeDialog(props: {
  node: Pick<NodeJson, "id" | "tenantId" | "hostname">;
  onClose: () => void;
  onRevoked: () => void;
}) {
  const { node } = props;
  const [reason, setReason] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const input = { tenantId: node.tenantId, nodeId: node.id, reason: reason === "" ? undefined : reason };
  const parsed = parseInput(revokeNodeInput, input);
  const reasonError = submitted && !parsed.ok ? `Reason ${parsed.violations[0]!.message}` : null;
  const mutation = useRevokeNodeMutation({
    onSuccess: (revoked) => {
      toast.success(`Revoked ${revoked.hostname}`);
      props.onClose();
      props.onRevoked();
    },
  });
  const pending = mutation.isPending;
  return (
    <ModalDialog
      open
      onOpenChange={(open) => (open ? undefined : props.onClose())}
      pending={pending}
      title={`Revoke ${node.hostname}`}
      description="Its credential is refused from then on: reports and renewals answer 401. Its inventory history stays readable. A machine can only come back by joining again."
      testId="revoke-dialog"
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (parsed.ok) mutation.mutate(input);
        }}
      >
        <DecisionError error={mutation.error} />
        <ReasonField
          label="Reason (optional, recorded with the revocation)"
          value={reason}
          onChange={setReason}
          error={reasonError}
          disabled={pending}
        />
        <DialogFooter>
          <DialogCancel pending={pending} />
          <button type="submit" className="button button-danger" disabled={pending}>
            {pending ? "Revoking…" : "Revoke"}
          </button>
        </DialogFooter>
      </form>
    </ModalDialog>
  );
}
