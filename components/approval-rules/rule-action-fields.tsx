"use client";
import type { RuleDraft } from "@/lib/approval-rules/rule-draft";
import styles from "./rules.module.css";

const KINDS: { kind: RuleDraft["kind"]; label: string }[] = [
  { kind: "approve", label: "Approve" },
  { kind: "reject", label: "Reject" },
  { kind: "requireApprovals", label: "Require more approvals" },
];

interface Props {
  draft: RuleDraft;
  change: (patch: Partial<RuleDraft>) => void;
  errorOf: (field: keyof RuleDraft) => string | null;
  disabled: boolean;
}

/** One labelled input with its error below it (described by it). */
function TextField(
  props: Props & { field: "ttlSeconds" | "reason" | "count" | "maxPerHour"; label: string; hint?: string; numeric?: boolean },
) {
  const { field, draft, errorOf } = props;
  const id = `rule-${field}`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        className="input"
        autoComplete="off"
        inputMode={props.numeric ? "numeric" : undefined}
        value={draft[field]}
        disabled={props.disabled}
        aria-invalid={errorOf(field) ? true : undefined}
        aria-describedby={`${id}-hint ${id}-error`}
        onChange={(event) => props.change({ [field]: event.target.value })}
      />
      <p id={`${id}-hint`} className="field-hint">
        {props.hint ?? ""}
      </p>
      <p id={`${id}-error`} className="field-error">
        {errorOf(field) ?? ""}
      </p>
    </div>
  );
}

/** The rule's action (approve with its validity, reject with its reason, or a count of approvals), its mode and an approve rule's hourly cap. */
export function RuleActionFields(props: Props) {
  const { draft, change, errorOf, disabled } = props;
  return (
    <>
      <div className={styles.row}>
        <div className="field">
          <label htmlFor="rule-kind">Action</label>
          <select
            id="rule-kind"
            className="input"
            value={draft.kind}
            disabled={disabled}
            aria-invalid={errorOf("kind") ? true : undefined}
            aria-describedby="rule-kind-error"
            onChange={(event) => change({ kind: event.target.value as RuleDraft["kind"] })}
          >
            {KINDS.map(({ kind, label }) => (
              <option key={kind} value={kind}>
                {label}
              </option>
            ))}
          </select>
          <p id="rule-kind-error" className="field-error">
            {errorOf("kind") ?? ""}
          </p>
        </div>
        <div className="field">
          <label htmlFor="rule-mode">Mode</label>
          <select
            id="rule-mode"
            className="input"
            value={draft.mode}
            disabled={disabled}
            aria-describedby="rule-mode-hint rule-mode-error"
            onChange={(event) => change({ mode: event.target.value as RuleDraft["mode"] })}
          >
            <option value="shadow">Shadow: record what it would do</option>
            <option value="enforce">Enforce: decide</option>
          </select>
          <p id="rule-mode-hint" className="field-hint">
            Start in shadow, watch its counts, then enforce.
          </p>
          <p id="rule-mode-error" className="field-error">
            {errorOf("mode") ?? ""}
          </p>
        </div>
      </div>
      <div className={styles.row}>
        {draft.kind === "approve" ? (
          <>
            <TextField {...props} field="ttlSeconds" label="Approval valid for (seconds)" hint="60 to 86400" numeric />
            <TextField
              {...props}
              field="maxPerHour"
              label="At most this many an hour"
              hint="1 to 10000; past it, requests wait for a person"
              numeric
            />
          </>
        ) : null}
        {draft.kind === "reject" ? <TextField {...props} field="reason" label="Reason (optional)" hint="Shown on the request" /> : null}
        {draft.kind === "requireApprovals" ? (
          <TextField {...props} field="count" label="Approvals required" hint="2 to 5 distinct people or service keys" numeric />
        ) : null}
      </div>
    </>
  );
}
