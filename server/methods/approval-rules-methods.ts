import "server-only";
import {
  createRuleInput,
  deleteRuleInput,
  deletedResponse,
  listedRulesResponse,
  listRulesInput,
  reorderRulesInput,
  ruleResponse,
  rulesResponse,
  testRuleInput,
  testRuleResponse,
  updateRuleInput,
} from "@/lib/approval-rules/rule-schemas";
import { ApiError } from "../api/errors";
import { checkedExpression } from "../approval-rules/checked-expression";
import { createRule } from "../approval-rules/create-rule";
import { deleteRule } from "../approval-rules/delete-rule";
import { findRulePool } from "../approval-rules/find-rule-pool";
import { listPoolRules } from "../approval-rules/list-pool-rules";
import { reorderRules } from "../approval-rules/reorder-rules";
import { toRuleJson } from "../approval-rules/rule-rows";
import { testRule } from "../approval-rules/test-rule";
import { updateRule } from "../approval-rules/update-rule";
import { definePoolMethod } from "./define-method";

// SPEC H2: a pool's approval rules, as published methods.
const common = { resource: "compute-pool", phase: "v0.4", status: "registered", module: "server" } as const;
const manage = { ...common, kind: "mutation", permission: "compute:approval-rules:manage" } as const;
const changed = [
  { type: "compute.approval-rule.changed", carries: " with the actor, the rule, its version, and the rule before and after" },
];

export const listRulesMethod = definePoolMethod({
  ...common,
  name: "approvalRules/list",
  kind: "read",
  permission: "compute:join-tokens:read",
  summary: "Lists a pool's approval rules in the order they run.",
  description:
    "Each rule carries `matches24h`: what it did in the 24 hours before the call, counted from its events — `enforced` (decided, " +
    "or raised the approvals required), `shadow`, `throttled` (past maxPerHour), `blocked` (what no rule may do), `errors`. " +
    "A pool the tenant does not own is `NOT_FOUND`.",
  input: listRulesInput,
  responses: { 200: listedRulesResponse },
  handler: async ({ db, pool, now }) => ({ rules: await listPoolRules({ db, pool, now }) }),
});

export const createRuleMethod = definePoolMethod({
  ...manage,
  name: "approvalRules/create",
  summary: "Adds an approval rule at the end of the pool's order, at version 1.",
  description:
    "`expression` is CEL over `request`, `discovery` and `now`, at most 4 KiB, type-checked to bool when saved: a problem is " +
    '`INVALID_ARGUMENT` naming `expression`, with the line and column. `action` is one of `{ "approve": { "ttlSeconds" } }`, ' +
    '`{ "reject": { "reason" } }`, `{ "requireApprovals": { "count": 2-5 } }`; an approve rule needs `maxPerHour` (1 to 10,000). ' +
    "`mode` is `shadow` (records what it would do) unless `enforce` is given. Decided as `compute:approval-rules:manage` " +
    "(`pool-admin`, `tenant-admin`).",
  publishes: changed,
  input: createRuleInput,
  responses: { 200: ruleResponse },
  handler: async ({ db, pool, input, principal, now }) => ({
    rule: toRuleJson(await createRule({ db, pool, rule: input, actor: principal.id, now })),
  }),
});

export const updateRuleMethod = definePoolMethod({
  ...manage,
  name: "approvalRules/update",
  summary: "Changes any of a rule's `name`, `expression`, `action`, `mode` and `maxPerHour`; the version goes up by one.",
  description:
    "The same checks as create, on the rule as it becomes. Changing nothing returns the rule unchanged, without an event. " +
    "A rule of another pool is `NOT_FOUND`.",
  publishes: changed,
  input: updateRuleInput,
  responses: { 200: ruleResponse },
  handler: async ({ db, pool, input, principal, now }) => {
    const { ruleId, name, expression, action, mode, maxPerHour } = input;
    const rule = await updateRule({ db, pool, ruleId, changes: { name, expression, action, mode, maxPerHour }, actor: principal.id, now });
    return { rule: toRuleJson(rule) };
  },
});

export const deleteRuleMethod = definePoolMethod({
  ...manage,
  name: "approvalRules/delete",
  summary: "Deletes a rule.",
  description: "A rule of another pool is `NOT_FOUND`. Decisions it made keep naming it (`rule:<id>@<version>`).",
  publishes: changed,
  input: deleteRuleInput,
  responses: { 200: deletedResponse },
  handler: async ({ db, pool, input, principal, now }) => {
    await deleteRule({ db, pool, ruleId: input.ruleId, actor: principal.id, now });
    return { deleted: true as const };
  },
});

export const reorderRulesMethod = definePoolMethod({
  ...manage,
  name: "approvalRules/reorder",
  summary: "Sets the order the pool's rules run in: `ruleIds` lists every rule of the pool exactly once.",
  description: "Anything else is `INVALID_ARGUMENT` naming `ruleIds`. Each rule that moves publishes its change; versions stay.",
  publishes: changed,
  input: reorderRulesInput,
  responses: { 200: rulesResponse },
  handler: async ({ db, pool, input, principal, now }) => ({
    rules: (await reorderRules({ db, pool, ruleIds: input.ruleIds, actor: principal.id, now })).map(toRuleJson),
  }),
});

export const testRuleMethod = definePoolMethod({
  ...common,
  name: "approvalRules/test",
  kind: "read",
  permission: "compute:join-tokens:read",
  summary:
    "Evaluates a draft rule (`rule`: `expression`, `action`) or a stored one (`ruleId`) against the pool's pending requests and those " +
    "it decided in the last 30 days, at most 10,000, newest first, and answers what it would do to each.",
  description:
    "Each result has `would` (`approve`, `reject`, `requireApprovals`, `nothing`, or `error` with the error), `blocked` where " +
    "enforcement would refuse the approval (a request deferred `machine-already-joined` or `hostname-in-use`, more than one approval " +
    "required, a TPM requirement), and `agrees`: whether it matches what the person who decided did (null where none did). " +
    "Changes nothing. A draft's expression is checked like create's.",
  input: testRuleInput,
  responses: { 200: testRuleResponse },
  handler: async ({ db, pool, input, now }) => {
    const stored = input.ruleId ? await db.approvalRule.findFirst({ where: { id: input.ruleId, poolId: pool.id } }) : null;
    if (input.ruleId && !stored) throw new ApiError("NOT_FOUND", `rule ${input.ruleId} not found in pool ${pool.id}`);
    const rule = input.rule ?? { expression: stored!.expression, action: toRuleJson(stored!).action };
    if (input.rule) checkedExpression(input.rule.expression, "rule.expression");
    return testRule({ db, pool: await findRulePool(db, pool.id, pool.tenantId), rule, now });
  },
});
