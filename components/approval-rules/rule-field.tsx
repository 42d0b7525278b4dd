"use client";
import type { ReactElement } from "react";
import type { RuleDraft } from "@/lib/approval-rules/rule-draft";

export interface DraftFieldProps {
  draft: RuleDraft;
  change: (patch: Partial<RuleDraft>) => void;
  errorOf: (field: keyof RuleDraft) => string | null;
  disabled: boolean;
}

/** What a field's control gets: its id, whether it is invalid, and the ids of the hint and error that describe it. */
export interface ControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string;
  disabled: boolean;
}

/**
 * One field of the rule editor: its label, its control, a hint and the
 * server's error for it (both describing the control), so every field shows
 * its error the same way in the same place.
 */
export function RuleField(
  props: DraftFieldProps & { field: keyof RuleDraft; label: string; hint?: string; control: (control: ControlProps) => ReactElement },
) {
  const id = `rule-${props.field}`;
  const error = props.errorOf(props.field);
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.control({
        id,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": props.hint ? `${id}-hint ${id}-error` : `${id}-error`,
        disabled: props.disabled,
      })}
      {props.hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {props.hint}
        </p>
      ) : null}
      <p id={`${id}-error`} className="field-error">
        {error ?? ""}
      </p>
    </div>
  );
}

/** A text field of the draft (numbers are typed as text: the server names what is wrong with one). */
export function RuleTextField(
  props: DraftFieldProps & {
    field: "name" | "ttlSeconds" | "reason" | "count" | "maxPerHour";
    label: string;
    hint?: string;
    numeric?: boolean;
  },
) {
  const { field } = props;
  return (
    <RuleField
      {...props}
      control={(control) => (
        <input
          {...control}
          className="input"
          autoComplete="off"
          inputMode={props.numeric ? "numeric" : undefined}
          value={props.draft[field]}
          onChange={(event) => props.change({ [field]: event.target.value })}
        />
      )}
    />
  );
}
