import "server-only";
import { ApiError } from "../api/errors";
import { compileRuleExpression } from "@/lib/approval-rules/compile-rule";

/** SPEC H2: an expression is type-checked when saved; a problem is INVALID_ARGUMENT naming the field, with where. */
export function checkedExpression(expression: string, field: string): string {
  const result = compileRuleExpression(expression);
  if (!result.ok) throw new ApiError("INVALID_ARGUMENT", `${field}: ${result.error.message}`, [{ field, message: result.error.message }]);
  return expression;
}
