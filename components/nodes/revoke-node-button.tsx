"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { DecisionError } from "@/components/join-requests/decision-error";
import { ReasonField } from "@/components/join-requests/reason-field";
import { DialogCancel, DialogFooter, ModalDialog } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toast";
import type { ApiClientError } from "@/lib/api-client/api-client-error";
import { callMethod } from "@/lib/api-client/call-method";
import type { NodeJson } from "@/lib/nodes/node-json";
import { revokeNodeInput } from "@/lib/validations/nodes";
import { parseInput } from "@/lib/validations/parse-input";

/**
 * Revokes a node (nodes/revoke) from its page: a dialog with the reason, the
 * same conventions as the queue's (cannot close while pending, a failure is
 * shown inside it). Only rendered for callers who may revoke.
 */
export function RevokeNodeButton({ node }: { node: Pick<NodeJson, "id" | "tenantId" | "hostname"> }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const input = { tenantId: node.tenantId, nodeId: node.id, reason: reason === "" ? undefined : reason };
  const parsed = parseInput(revokeNodeInput, input);
  const reasonError = submitted && !parsed.ok ? `Reason ${parsed.violations[0]!.message}` : null;
  const mutation = useMutation<NodeJson, ApiClientError>({
    mutationFn: () => callMethod<NodeJson>("nodes/revoke", input),
    onSuccess: (revoked) => {
      toast.success(`Revoked ${revoked.hostname}`);
      setOpen(false);
      router.refresh();
    },
  });
  const pending = mutation.isPending;
  return (
    <>
      <button type="button" className="button button-danger" onClick={() => { mutation.reset(); setOpen(true); }}>
        Revoke node
      </button>
      {/* always mounted, so that closing it returns focus to the button (Radix's focus scope) */}
      <ModalDialog
          open={open}
          onOpenChange={setOpen}
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
              if (parsed.ok) mutation.mutate();
            }}
          >
            <DecisionError error={mutation.error} />
            <ReasonField label="Reason (optional, recorded with the revocation)" value={reason} onChange={setReason} error={reasonError} disabled={pending} />
            <DialogFooter>
              <DialogCancel pending={pending} />
              <button type="submit" className="button button-danger" disabled={pending}>{pending ? "Revoking…" : "Revoke"}</button>
            </DialogFooter>
          </form>
        </ModalDialog>
    </>
  );
}
