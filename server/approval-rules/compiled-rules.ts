import "server-only";
import type { ApprovalRule } from "../db/generated/client";
import { compileRuleExpression, type CompiledExpression, type Outcome } from "@/lib/approval-rules/compile-rule";
import type { RuleSubject } from "@/lib/approval-rules/rule-variables";

// A rule's expression is compiled once per version per process (a version's
// expression never changes), not once per request.
const cache = new Map<string, CompiledExpression | { problem: string }>();
const MAX_CACHED = 1000;

function compiled(rule: Pick<ApprovalRule, "id" | "version" | "expression">): CompiledExpression | { problem: string } {
  const key = `${rule.id}@${rule.version}`;
  let entry = cache.get(key);
  if (!entry) {
    const result = compileRuleExpression(rule.expression);
    entry = result.ok ? result.expression : { problem: result.error.message };
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(key, entry);
  }
  return entry;
}

/** The rule's expression on one subject: matched, or the error (a stored rule that no longer compiles is an error too). */
export function evaluateRule(rule: Pick<ApprovalRule, "id" | "version" | "expression">, subject: RuleSubject): Outcome {
  const entry = compiled(rule);
  return "problem" in entry ? { error: entry.problem } : entry.evaluate(subject);
}
