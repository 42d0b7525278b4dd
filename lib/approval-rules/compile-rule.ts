import { celEnv, isCelError, parse, plan } from "@bufbuild/cel";
import { cachedRe2 } from "./cached-re2";
import { checkExpression, ExpressionProblem } from "./check-expression";
import { MAX_EXPRESSION_BYTES } from "./rule-schemas";
import { CEL_VARIABLES, ruleBindings, type RuleSubject } from "./rule-variables";
import { SAMPLE_SUBJECTS } from "./sample-subjects";

// SPEC H2: a rule's expression compiled once — parsed by @bufbuild/cel,
// checked against the declared variables (check-expression.ts), and evaluated
// on sample subjects so that what the static walk left as `dyn` is checked
// too — then evaluated per request. Runs in the browser as on the server
// (the console's editor checks as it is typed): nothing here is node-only.

const env = celEnv({ variables: CEL_VARIABLES, re2: cachedRe2() });

/** Where a problem is: a 0-based offset into the expression and its 1-based line and column. */
export interface ExpressionError {
  message: string;
  offset: number;
  line: number;
  column: number;
}

export type Outcome = { matched: boolean } | { error: string };

export interface CompiledExpression {
  evaluate(subject: RuleSubject): Outcome;
}

export type CompileResult = { ok: true; expression: CompiledExpression } | { ok: false; error: ExpressionError };

// Errors no input of the declared shape can avoid: a wrong type or a function that does not exist.
const TYPE_ERROR = /no matching overload|unbound function|type mismatch/;

export function compileRuleExpression(source: string): CompileResult {
  if (new TextEncoder().encode(source).length > MAX_EXPRESSION_BYTES) {
    return failure(source, `the expression is longer than ${MAX_EXPRESSION_BYTES} bytes (4 KiB)`, 0);
  }
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(source);
  } catch (error) {
    const offset = (error as { location?: { start?: { offset?: number } } }).location?.start?.offset ?? 0;
    const message = error instanceof Error ? error.message.replace(/^<input>:\d+:\d+: /, "") : String(error);
    return failure(source, `syntax error: ${message}`, offset);
  }
  const offsetOf = (exprId: bigint | undefined) => (exprId === undefined ? 0 : (parsed.sourceInfo?.positions[String(exprId)] ?? 0));
  try {
    checkExpression(parsed.expr);
  } catch (error) {
    if (error instanceof ExpressionProblem) return failure(source, error.message, offsetOf(error.exprId));
    throw error;
  }
  const run = plan(env, parsed);
  const evaluate = (subject: RuleSubject): Outcome => {
    let result: unknown;
    try {
      result = run(ruleBindings(subject) as Parameters<typeof run>[0]);
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
    if (isCelError(result)) return { error: result.message };
    if (typeof result !== "boolean") return { error: `the expression evaluated to ${typeof result}, not bool` };
    return { matched: result };
  };
  for (const sample of SAMPLE_SUBJECTS) {
    const result = run(ruleBindings(sample) as Parameters<typeof run>[0]);
    if (isCelError(result) && TYPE_ERROR.test(result.message)) return failure(source, result.message, offsetOf(result.exprId));
    if (!isCelError(result) && typeof result !== "boolean") {
      return failure(source, `the expression must evaluate to bool, not ${describeValue(result)}`, 0);
    }
  }
  return { ok: true, expression: { evaluate } };
}

function describeValue(value: unknown): string {
  if (typeof value === "bigint") return "int";
  if (typeof value === "number") return "double";
  if (value === null) return "null";
  return typeof value === "object" ? "a list, map or message" : typeof value;
}

function failure(source: string, message: string, offset: number): { ok: false; error: ExpressionError } {
  const before = source.slice(0, offset).split("\n");
  const line = before.length;
  const column = before[before.length - 1]!.length + 1;
  return { ok: false, error: { message: `${message} (line ${line}, column ${column})`, offset, line, column } };
}
