"use client";
import { RuleError } from "./rule-error";
import { DialogCancel, DialogFooter, ModalDialog } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toast";
import { useDeleteRuleMutation } from "@/data/approval-rules/delete-rule-mutation";
import type { ListedRuleJson } from "@/lib/approval-rules/rule-schemas";
import type { RulesScope } from "./rules-scope";

/** Deleting a rule, confirmed: it cannot close while the delete is pending, and a failure shows inside it. */
export function DeleteRuleDialog({ scope, rule, onClose }: { scope: RulesScope; rule: ListedRuleJson; onClose: () => void }) {
  const mutation = useDeleteRuleMutation(scope.tenantId, scope.poolId, {
    onSuccess: () => {
      toast.success(`Deleted ${rule.name}`);
      onClose();
    },
  });
  const pending = mutation.isPending;
  return (
    <ModalDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      pending={pending}
      title={`Delete ${rule.name}?`}
      description="It stops running on new requests at once. Requests it decided keep naming it and its version."
      testId="delete-rule-dialog"
    >
      <RuleError error={mutation.error} />
      <DialogFooter>
        <DialogCancel pending={pending} />
        <button type="button" className="button button-danger" disabled={pending} onClick={() => mutation.mutate(rule.id)}>
          {pending ? "Deleting…" : "Delete rule"}
        </button>
      </DialogFooter>
    </ModalDialog>
  );
}
