"use client";
import { useDeferredValue, useEffect, useState } from "react";
import type { compileRuleExpression, ExpressionError } from "@/lib/approval-rules/compile-rule";
import styles from "./rules.module.css";

type Compile = typeof compileRuleExpression;

/**
 * The rule's CEL, checked as it is typed by the implementation the server
 * saves with (lib/approval-rules/compile-rule.ts: @bufbuild/cel and our type
 * and cost check). The checker is imported on first render of the editor, so
 * the CEL library loads on the rules route only. A problem shows with its
 * line and column and the line it is on, a caret under the place.
 */
export function ExpressionField(props: {
  value: string;
  onChange: (value: string) => void;
  serverError: string | null;
  disabled: boolean;
}) {
  const [compile, setCompile] = useState<Compile | null>(null);
  useEffect(() => {
    let live = true;
    void import("@/lib/approval-rules/compile-rule").then((module) => live && setCompile(() => module.compileRuleExpression));
    return () => {
      live = false;
    };
  }, []);
  const source = useDeferredValue(props.value);
  const checked = compile && source.trim() ? compile(source) : null;
  const problem: ExpressionError | null = checked && !checked.ok ? checked.error : null;
  const invalid = problem !== null || props.serverError !== null;
  return (
    <div className="field">
      <label htmlFor="rule-expression">Expression (CEL)</label>
      <p id="rule-expression-hint" className="field-hint">
        True for the requests the rule acts on. Variables: <code>request</code> (with <code>machine</code>, <code>reasons</code>,{" "}
        <code>credential</code>, <code>tpmProven</code>), <code>discovery</code> (or null) and <code>now</code>.
      </p>
      <textarea
        id="rule-expression"
        className="input"
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        value={props.value}
        disabled={props.disabled}
        aria-invalid={invalid ? true : undefined}
        aria-describedby="rule-expression-hint rule-expression-check"
        placeholder="request.machine.hostname.matches('^gpu-b-[0-9]+\\\\.fra1\\\\.acme\\\\.test$')"
        onChange={(event) => props.onChange(event.target.value)}
      />
      <div id="rule-expression-check" aria-live="polite" data-testid="expression-check">
        {props.serverError ? <p className="field-error">{props.serverError}</p> : null}
        {problem ? (
          <>
            <p className="field-error" data-testid="expression-error">
              {problem.message}
            </p>
            <pre className={styles.caret} aria-hidden="true" data-testid="expression-caret">
              {caretLines(source, problem)}
            </pre>
          </>
        ) : checked?.ok && !props.serverError ? (
          <p className={styles.ok} data-testid="expression-ok">
            ✓ Checked: a bool over the declared variables.
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** The line the problem is on and a caret under its column. */
function caretLines(source: string, problem: ExpressionError): string {
  const line = source.split("\n")[problem.line - 1] ?? "";
  return `${line}\n${" ".repeat(Math.max(0, problem.column - 1))}^`;
}
