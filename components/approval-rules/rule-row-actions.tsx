"use client";
import { toast } from "@/components/ui/toast";
import { useReorderRulesMutation } from "@/data/approval-rules/reorder-rules-mutation";
import { useSwitchRuleModeMutation } from "@/data/approval-rules/switch-rule-mode-mutation";
import { movedOrder } from "@/lib/approval-rules/rule-draft";
import type { ListedRuleJson } from "@/lib/approval-rules/rule-schemas";
import type { RulesScope } from "./rules-scope";

/**
 * A rule's controls on the Rules page: buttons (keyboard-usable as they are),
 * each naming its rule for a screen reader. Moving sends the whole order
 * (approvalRules/reorder); a failure is a toast, the list refetched.
 */
export function RuleRowActions(props: { scope: RulesScope; rules: ListedRuleJson[]; index: number; onDelete: () => void }) {
  const { scope, rules, index } = props;
  const rule = rules[index]!;
  const onError = (error: Error) => toast.error(error.message);
  const reorder = useReorderRulesMutation(scope.tenantId, scope.poolId);
  const mode = useSwitchRuleModeMutation(scope.tenantId, scope.poolId, {
    onSuccess: ({ rule: after }) =>
      toast.success(`${after.name} now ${after.mode === "enforce" ? "enforces" : "runs in shadow"} (v${after.version})`),
  });
  const busy = reorder.isPending || mode.isPending;
  const move = (delta: -1 | 1) =>
    reorder.mutate(
      movedOrder(
        rules.map((each) => each.id),
        index,
        delta,
      ),
      { onError },
    );
  const next = rule.mode === "enforce" ? "shadow" : "enforce";
  return (
    <div className="inline-actions">
      <button
        type="button"
        className="button button-small"
        disabled={busy || index === 0}
        onClick={() => move(-1)}
        aria-label={`Move ${rule.name} up`}
      >
        ↑ Up
      </button>
      <button
        type="button"
        className="button button-small"
        disabled={busy || index === rules.length - 1}
        onClick={() => move(1)}
        aria-label={`Move ${rule.name} down`}
      >
        ↓ Down
      </button>
      <button
        type="button"
        className="button button-small"
        disabled={busy}
        onClick={() => mode.mutate({ ruleId: rule.id, mode: next }, { onError })}
        aria-label={next === "enforce" ? `Enforce ${rule.name}` : `Switch ${rule.name} back to shadow`}
      >
        {next === "enforce" ? "Enforce" : "Back to shadow"}
      </button>
      <button
        type="button"
        className="button button-small button-danger"
        disabled={busy}
        onClick={props.onDelete}
        aria-label={`Delete ${rule.name}`}
      >
        Delete…
      </button>
    </div>
  );
}
