"use client";
import { useState } from "react";
import { DialogCancel, DialogFooter, ModalDialog } from "@/components/ui/dialog";
import { useAttestationChangeMutation } from "@/data/attestation/attestation-change-mutation";
import { toast } from "@/components/ui/toast";
import { removeTpmTrustedRoot } from "@/lib/api-client/attestation";

/**
 * SPEC I1: takes one root out of the trust store, after a confirmation (EK
 * certificates under it stop being trusted at their machines' next joins).
 * A failure is shown inside the dialog.
 */
export function TrustRootRemoveButton({ tenantId, subject, pem }: { tenantId: string; subject: string; pem: string }) {
  const [open, setOpen] = useState(false);
  const remove = useAttestationChangeMutation(() => removeTpmTrustedRoot({ tenantId, certificate: pem }), {
    onSuccess: () => {
      toast.success(`Removed ${subject || "(empty subject)"} from the trust store`);
      setOpen(false);
    },
  });
  const name = subject || "(empty subject)";
  return (
    <>
      <button type="button" className="button" onClick={() => setOpen(true)} aria-label={`Remove ${name}`}>
        Remove
      </button>
      {open ? (
        <ModalDialog
          open
          onOpenChange={setOpen}
          pending={remove.isPending}
          title={`Remove ${name}?`}
          description={`Endorsement keys whose certificates chain only to this root are no longer trusted in ${tenantId}; their machines' next joins are deferred tpm-ek-not-allowed.`}
          testId="trust-root-remove-dialog"
        >
          {remove.error ? (
            <p role="alert" className="field-error">
              {remove.error.code}: {remove.error.message}
            </p>
          ) : null}
          <DialogFooter>
            <DialogCancel pending={remove.isPending} />
            <button type="button" className="button button-danger" disabled={remove.isPending} onClick={() => remove.mutate(undefined)}>
              {remove.isPending ? "Removing…" : "Remove"}
            </button>
          </DialogFooter>
        </ModalDialog>
      ) : null}
    </>
  );
}
