import { z } from "zod";
import { boundedInt, optional, patternString, poolIdField, reasonField, tenantIdField, withDefault } from "@/lib/validations/fields";
import { TTL_DEFAULT_SECONDS, TTL_MAX_SECONDS, TTL_MIN_SECONDS } from "@/lib/validations/join-requests";
import { timestamp } from "@/lib/wire/fields";

// SPEC H2: approval rules as data, one schema per shape, shared by the
// server (methods, the admin CLI) and the console's editor.

/** SPEC H2: an expression is at most 4 KiB (UTF-8 bytes, as stored). */
export const MAX_EXPRESSION_BYTES = 4096;
export const MAX_PER_HOUR_LIMIT = 10_000;
export const RULE_MODES = ["enforce", "shadow"] as const;
export type RuleMode = (typeof RULE_MODES)[number];
export const RULE_ID_PATTERN = /^rule_[0-9a-hjkmnp-tv-z]{26}$/;
/** How many rules one pool holds: each deferral runs them all. */
export const MAX_RULES_PER_POOL = 50;

const utf8Bytes = (value: string) => new TextEncoder().encode(value).length;

export const ruleIdField = patternString(31, RULE_ID_PATTERN);
export const ruleNameField = patternString(128, /^[^\u0000-\u001f\u007f]+$/);
export const expressionField = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .refine((value) => value.trim().length > 0, "must not be empty")
  .refine((value) => utf8Bytes(value) <= MAX_EXPRESSION_BYTES, `must be at most ${MAX_EXPRESSION_BYTES} bytes (4 KiB)`)
  .meta({ maxLength: MAX_EXPRESSION_BYTES, description: "CEL, type-checked to bool against `request`, `discovery` and `now`" });
export const ruleModeField = z.enum(RULE_MODES, { error: `must be one of ${RULE_MODES.join(", ")}` });
export const maxPerHourField = boundedInt(1, MAX_PER_HOUR_LIMIT);

/** What a rule does when it matches: exactly one of the three. */
export type RuleAction = { approve: { ttlSeconds: number } } | { reject: { reason?: string } } | { requireApprovals: { count: number } };
export type ActionKind = "approve" | "reject" | "requireApprovals";

const ACTION_KINDS: readonly ActionKind[] = ["approve", "reject", "requireApprovals"];

export const ruleActionField = z
  .strictObject(
    {
      approve: optional(z.strictObject({ ttlSeconds: withDefault(boundedInt(TTL_MIN_SECONDS, TTL_MAX_SECONDS), TTL_DEFAULT_SECONDS) })),
      reject: optional(z.strictObject({ reason: optional(reasonField) })),
      requireApprovals: optional(z.strictObject({ count: boundedInt(2, 5) })),
    },
    { error: (issue) => (issue.input === undefined ? "is required" : "must be an object") },
  )
  .refine((action) => ACTION_KINDS.filter((kind) => action[kind] !== undefined).length === 1, {
    message: "must have exactly one of approve, reject, requireApprovals",
  })
  .transform((action): RuleAction => {
    if (action.approve) return { approve: action.approve };
    if (action.reject) return { reject: action.reject.reason ? { reason: action.reject.reason } : {} };
    return { requireApprovals: action.requireApprovals! };
  });

export function actionKind(action: RuleAction): ActionKind {
  if ("approve" in action) return "approve";
  if ("reject" in action) return "reject";
  return "requireApprovals";
}

/** SPEC H2: an approve rule has its hourly cap; the others have none. */
export function capProblem(action: RuleAction, maxPerHour: number | null | undefined): string | null {
  if (actionKind(action) === "approve") return maxPerHour == null ? "is required for an approve rule (1 to 10000)" : null;
  return maxPerHour == null ? null : "applies only to approve rules";
}

const poolScope = { tenantId: tenantIdField, poolId: poolIdField };

export const listRulesInput = z.strictObject(poolScope);

export const createRuleInput = z
  .strictObject({
    ...poolScope,
    name: ruleNameField,
    expression: expressionField,
    action: ruleActionField,
    mode: withDefault(ruleModeField, "shadow"),
    maxPerHour: optional(maxPerHourField),
  })
  .superRefine((input, context) => {
    const problem = capProblem(input.action, input.maxPerHour);
    if (problem) context.addIssue({ code: "custom", path: ["maxPerHour"], message: problem });
  });

/** Any of create's fields; the cap is checked against the rule as it would become. */
export const updateRuleInput = z.strictObject({
  ...poolScope,
  ruleId: ruleIdField,
  name: optional(ruleNameField),
  expression: optional(expressionField),
  action: optional(ruleActionField),
  mode: optional(ruleModeField),
  maxPerHour: optional(maxPerHourField),
});

export const deleteRuleInput = z.strictObject({ ...poolScope, ruleId: ruleIdField });

export const reorderRulesInput = z.strictObject({
  ...poolScope,
  ruleIds: z.array(ruleIdField, { error: "must be an array of rule ids" }).max(MAX_RULES_PER_POOL),
});

export const testRuleInput = z
  .strictObject({
    ...poolScope,
    rule: optional(z.strictObject({ expression: expressionField, action: ruleActionField })),
    ruleId: optional(ruleIdField),
  })
  .superRefine((input, context) => {
    if ((input.rule === undefined) === (input.ruleId === undefined)) {
      context.addIssue({ code: "custom", path: ["rule"], message: "give exactly one of rule (a draft) or ruleId" });
    }
  });

export type CreateRuleInput = z.output<typeof createRuleInput>;
export type UpdateRuleInput = z.output<typeof updateRuleInput>;
export type TestRuleInput = z.output<typeof testRuleInput>;

const actionJson = z.union([
  z.strictObject({ approve: z.strictObject({ ttlSeconds: z.number().int() }) }),
  z.strictObject({ reject: z.strictObject({ reason: z.string().optional() }) }),
  z.strictObject({ requireApprovals: z.strictObject({ count: z.number().int() }) }),
]);

export const ruleJson = z.strictObject({
  id: z.string().startsWith("rule_"),
  tenantId: z.string(),
  poolId: z.string(),
  position: z.number().int(),
  name: z.string(),
  expression: z.string(),
  action: actionJson,
  mode: z.enum(RULE_MODES),
  maxPerHour: z.number().int().nullable(),
  version: z.number().int(),
  updatedBy: z.string(),
  updatedAt: timestamp,
  createdAt: timestamp,
});
export type RuleJson = z.infer<typeof ruleJson>;

export const ruleResponse = z.strictObject({ rule: ruleJson });
export const rulesResponse = z.strictObject({ rules: z.array(ruleJson) });

const count = z.number().int();
/** What a rule did in the last 24 hours (the console's Rules page), counted from its events. */
export const ruleMatchCountsJson = z
  .strictObject({
    enforced: count.meta({ description: "requests it decided, or whose approvals required it raised" }),
    shadow: count.meta({ description: "matches recorded in shadow mode" }),
    throttled: count.meta({ description: "approvals held back by maxPerHour" }),
    blocked: count.meta({ description: "enforce matches no rule may carry out (SPEC H2)" }),
    errors: count.meta({ description: "evaluations that failed (counted as not matching)" }),
  })
  .meta({ description: "what the rule did in the 24 hours before the call" });
export type RuleMatchCounts = z.infer<typeof ruleMatchCountsJson>;
/** approvalRules/list: each rule with its last 24 hours. */
export const listedRuleJson = ruleJson.extend({ matches24h: ruleMatchCountsJson });
export type ListedRuleJson = z.infer<typeof listedRuleJson>;
export const listedRulesResponse = z.strictObject({ rules: z.array(listedRuleJson) });
export const deletedResponse = z.strictObject({ deleted: z.literal(true) });

/** What a rule would do to one request: its action, nothing (no match), or an evaluation error. */
export const WOULD = ["approve", "reject", "requireApprovals", "nothing", "error"] as const;
export type Would = (typeof WOULD)[number];

export const testResultJson = z.strictObject({
  requestId: z.string(),
  state: z.string(),
  would: z.enum(WOULD),
  error: z.string().optional(),
  blocked: z.string().optional().meta({ description: "why enforcement would not approve it (SPEC H2: what no rule may approve)" }),
  decidedBy: z.string().nullable(),
  agrees: z
    .boolean()
    .nullable()
    .meta({ description: "against the decision a principal made; null where none was made or the rule makes no claim" }),
});
export const testRuleResponse = z.strictObject({
  results: z.array(testResultJson),
  summary: z.strictObject({
    requests: z.number().int(),
    wouldApprove: z.number().int(),
    wouldReject: z.number().int(),
    wouldRequireApprovals: z.number().int(),
    nothing: z.number().int(),
    errors: z.number().int(),
    agree: z.number().int(),
    disagree: z.number().int(),
  }),
});
export type TestRuleAnswer = z.infer<typeof testRuleResponse>;
