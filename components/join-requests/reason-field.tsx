"use client";
import { codePointLength } from "@/lib/validations/fields";
import { REASON_MAX_CHARACTERS } from "@/lib/validations/join-requests";
import styles from "./decision-form.module.css";

/** The optional reason, with a counter in code points (what the server counts). */
export function ReasonField(props: {
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  disabled: boolean;
  label: string;
}) {
  const length = codePointLength(props.value);
  return (
    <div className="field">
      <label htmlFor="decision-reason">{props.label}</label>
      <input
        id="decision-reason"
        className="input"
        autoComplete="off"
        value={props.value}
        disabled={props.disabled}
        aria-invalid={props.error ? true : undefined}
        aria-describedby="decision-reason-count decision-reason-error"
        placeholder="e.g. racked by ops, ticket OPS-1042"
        onChange={(event) => props.onChange(event.target.value)}
      />
      <div className={styles.reasonMeta}>
        <p id="decision-reason-error" className="field-error">
          {props.error ?? ""}
        </p>
        <span id="decision-reason-count" className={length > REASON_MAX_CHARACTERS ? "field-error" : "field-hint"} aria-live="polite">
          {length} / {REASON_MAX_CHARACTERS}
        </span>
      </div>
    </div>
  );
}
