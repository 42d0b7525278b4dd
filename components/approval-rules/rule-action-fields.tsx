"use client";
import type { RuleDraft } from "@/lib/approval-rules/rule-draft";
import { RuleField, RuleTextField, type DraftFieldProps } from "./rule-field";
import styles from "./rules.module.css";

const KINDS: { value: RuleDraft["kind"]; label: string }[] = [
  { value: "approve", label: "Approve" },
  { value: "reject", label: "Reject" },
  { value: "requireApprovals", label: "Require more approvals" },
];
const MODES: { value: RuleDraft["mode"]; label: string }[] = [
  { value: "shadow", label: "Shadow: record what it would do" },
  { value: "enforce", label: "Enforce: decide" },
];

/** A choice of the draft as a native select. */
function RuleSelect<F extends "kind" | "mode">(
  props: DraftFieldProps & { field: F; label: string; hint?: string; options: { value: RuleDraft[F]; label: string }[] },
) {
  return (
    <RuleField
      {...props}
      control={(control) => (
        <select
          {...control}
          className="input"
          value={props.draft[props.field]}
          onChange={(event) => props.change({ [props.field]: event.target.value })}
        >
          {props.options.map(({ value, label }) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/** The rule's action (approve with its validity, reject with its reason, or a count of approvals), its mode and an approve rule's hourly cap. */
export function RuleActionFields(props: DraftFieldProps) {
  const { kind } = props.draft;
  return (
    <>
      <div className={styles.row}>
        <RuleSelect {...props} field="kind" label="Action" options={KINDS} />
        <RuleSelect {...props} field="mode" label="Mode" hint="Start in shadow, watch its counts, then enforce." options={MODES} />
      </div>
      <div className={styles.row}>
        {kind === "approve" ? (
          <>
            <RuleTextField {...props} field="ttlSeconds" label="Approval valid for (seconds)" hint="60 to 86400" numeric />
            <RuleTextField
              {...props}
              field="maxPerHour"
              label="At most this many an hour"
              hint="1 to 10000; past it, requests wait for a person"
              numeric
            />
          </>
        ) : null}
        {kind === "reject" ? <RuleTextField {...props} field="reason" label="Reason (optional)" hint="Shown on the request" /> : null}
        {kind === "requireApprovals" ? (
          <RuleTextField {...props} field="count" label="Approvals required" hint="2 to 5 distinct people or service keys" numeric />
        ) : null}
      </div>
    </>
  );
}
