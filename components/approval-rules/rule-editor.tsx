"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "@/components/ui/toast";
import { useDryRunMutation } from "@/data/approval-rules/dry-run-mutation";
import { useSaveRuleMutation } from "@/data/approval-rules/save-rule-mutation";
import type { ApiClientError } from "@/lib/api-client/api-client-error";
import { draftFieldOf, draftFields, draftTestRule, type RuleDraft } from "@/lib/approval-rules/rule-draft";
import { DryRunResults } from "./dry-run-results";
import { ExpressionField } from "./expression-field";
import { RuleActionFields } from "./rule-action-fields";
import { RuleError } from "./rule-error";
import { RuleTextField } from "./rule-field";
import { rulesHref } from "./rule-paths";
import styles from "./rules.module.css";

type FieldErrors = Partial<Record<keyof RuleDraft, string>>;

/** A server error's field violations, each under the field it names; what names no field stays in the form's alert. */
function splitErrors(error: ApiClientError | null): { fields: FieldErrors; general: ApiClientError | null } {
  if (!error) return { fields: {}, general: null };
  const fields: FieldErrors = {};
  for (const detail of error.details) {
    const field = draftFieldOf(detail.field);
    if (field) fields[field] ??= detail.message;
  }
  return { fields, general: Object.keys(fields).length === 0 ? error : null };
}

/**
 * SPEC H2's rule editor: name, expression (checked as typed), action, mode
 * and cap, a dry run of the draft against the pool's queue before saving,
 * then Save (create, or update of `ruleId`). While a call runs the form is
 * disabled; the server's errors show inside it, under the field they name.
 * A reader without compute:approval-rules:manage sees it read-only and may
 * still run the dry run (approvalRules/test is a read).
 */
export function RuleEditor(props: { tenantId: string; poolId: string; ruleId: string | null; initial: RuleDraft; canManage: boolean }) {
  const { tenantId, poolId, ruleId, canManage } = props;
  const router = useRouter();
  const [draft, setDraft] = useState(props.initial);
  const save = useSaveRuleMutation(tenantId, poolId, {
    onSuccess: ({ rule }) => {
      toast.success(`Saved ${rule.name} (v${rule.version}, ${rule.mode})`);
      router.push(rulesHref(poolId));
    },
  });
  const dryRun = useDryRunMutation(tenantId, poolId);
  const pending = save.isPending;
  const readOnly = !canManage || pending;
  const saved = splitErrors(save.error);
  const tested = splitErrors(dryRun.error);
  // a field edited since the last call's answer no longer shows that answer's error for it
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const errorOf = (field: keyof RuleDraft) => (edited.has(field) ? null : (saved.fields[field] ?? tested.fields[field] ?? null));
  const change = (patch: Partial<RuleDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setEdited((current) => new Set([...current, ...Object.keys(patch)]));
  };
  const fieldProps = { draft, change, errorOf, disabled: readOnly };
  // a new call's answer replaces the last: the edits since that one no longer matter
  const fresh = () => setEdited(new Set());

  return (
    <form
      className={`card ${styles.editor}`}
      noValidate
      aria-busy={pending}
      data-testid="rule-editor"
      onSubmit={(event) => {
        event.preventDefault();
        const fields = draftFields(draft);
        fresh();
        save.mutate(ruleId ? { update: { tenantId, poolId, ruleId, ...fields } } : { create: { tenantId, poolId, ...fields } });
      }}
    >
      <RuleError error={saved.general} testId="rule-save-error" />
      <RuleTextField {...fieldProps} field="name" label="Name" />
      <ExpressionField
        value={draft.expression}
        onChange={(expression) => change({ expression })}
        serverError={errorOf("expression")}
        disabled={readOnly}
      />
      <RuleActionFields {...fieldProps} />
      <div className={styles.actions}>
        <button
          type="button"
          className="button"
          disabled={dryRun.isPending || pending}
          onClick={() => {
            fresh();
            save.reset(); // a dry run after a failed Save: that Save's errors are over
            dryRun.mutate({ tenantId, poolId, rule: draftTestRule(draft) });
          }}
        >
          {dryRun.isPending ? "Running…" : "Dry run against the queue"}
        </button>
        {canManage ? (
          <button type="submit" className="button button-primary" disabled={pending}>
            {pending ? "Saving…" : ruleId ? "Save changes" : "Save rule"}
          </button>
        ) : null}
      </div>
      <RuleError error={tested.general} testId="dry-run-error" />
      {dryRun.data ? <DryRunResults poolId={poolId} answer={dryRun.data} /> : null}
    </form>
  );
}
