import { z } from "zod";
import { AdminError, parseAdminInput } from "@/server/admin/admin-error";
import { createRule } from "@/server/approval-rules/create-rule";
import { deleteRule } from "@/server/approval-rules/delete-rule";
import { findRulePool } from "@/server/approval-rules/find-rule-pool";
import { readPoolRules, toRuleJson } from "@/server/approval-rules/rule-rows";
import { testRule } from "@/server/approval-rules/test-rule";
import { createRuleInput, ruleActionField, ruleIdField } from "@/lib/approval-rules/rule-schemas";
import { compileRuleExpression } from "@/lib/approval-rules/compile-rule";
import { poolIdField } from "@/lib/validations/fields";
import { required, text, type AdminContext, type AdminNoun, type OptionValues } from "./admin-command";
import { at, printOutcome, printTable } from "./output";

// `npm run admin -- rules …` (SPEC H2): a pool's approval rules for operators,
// through the same domain functions and checks as approvalRules/*. A pool is
// named by its id alone (unique across the control plane); `--action` is the
// action as JSON, as the API takes it: '{"approve":{"ttlSeconds":600}}'.

const pool = (context: AdminContext, values: OptionValues) =>
  findRulePool(context.db, parseAdminInput(z.strictObject({ poolId: poolIdField }), { poolId: required(values, "pool", rules) }).poolId);

function actionOption(values: OptionValues): unknown {
  const raw = required(values, "action", rules);
  try {
    return JSON.parse(raw);
  } catch {
    return raw; // the schema names it: "action: must be an object"
  }
}

const maxPerHourOption = (values: OptionValues) =>
  text(values, "max-per-hour") === undefined ? undefined : Number(text(values, "max-per-hour"));

async function testVerb(context: AdminContext, values: OptionValues): Promise<void> {
  const target = await pool(context, values);
  const ruleId = text(values, "id");
  let rule;
  if (ruleId) {
    const stored = (await readPoolRules(context.db, target.id)).find(
      (each) => each.id === parseAdminInput(z.strictObject({ ruleId: ruleIdField }), { ruleId }).ruleId,
    );
    if (!stored) throw new AdminError(`rule ${ruleId} not found in pool ${target.id}`, "NOT_FOUND");
    rule = { expression: stored.expression, action: toRuleJson(stored).action };
  } else {
    rule = parseAdminInput(z.strictObject({ expression: z.string(), action: ruleActionField }), {
      expression: required(values, "expression", rules),
      action: actionOption(values),
    });
    const compiled = compileRuleExpression(rule.expression);
    if (!compiled.ok) throw new AdminError(`expression: ${compiled.error.message}`, "INVALID_ARGUMENT");
  }
  const answer = await testRule({ db: context.db, pool: target, rule, now: context.now });
  if (context.json) return context.print(JSON.stringify(answer, null, 2));
  const { summary } = answer;
  context.print(
    `${summary.requests} requests: would approve ${summary.wouldApprove}, reject ${summary.wouldReject}, ` +
      `require approvals ${summary.wouldRequireApprovals}, nothing ${summary.nothing}, errors ${summary.errors}; ` +
      `agrees with people ${summary.agree}, disagrees ${summary.disagree}`,
  );
  printTable(
    context,
    answer.results,
    [
      ["REQUEST", (row) => row.requestId],
      ["STATE", (row) => row.state],
      ["WOULD", (row) => (row.blocked ? `${row.would} (blocked)` : row.would)],
      ["DECIDED BY", (row) => row.decidedBy],
      ["AGREES", (row) => (row.agrees === null ? null : row.agrees ? "yes" : "no")],
    ],
    "",
  );
}

export const rules: AdminNoun = {
  name: "rules",
  summary: "A pool's approval rules (SPEC H2): CEL run in order when a request is deferred; shadow rules record, enforce rules decide.",
  verbs: {
    list: {
      synopsis: "--pool <poolId>",
      options: { pool: { type: "string" } },
      async run(context, values) {
        const target = await pool(context, values);
        printTable(
          context,
          (await readPoolRules(context.db, target.id)).map(toRuleJson),
          [
            ["RULE", (row) => row.id],
            ["NAME", (row) => row.name],
            ["MODE", (row) => row.mode],
            ["ACTION", (row) => JSON.stringify(row.action)],
            ["PER HOUR", (row) => (row.maxPerHour === null ? null : String(row.maxPerHour))],
            ["VERSION", (row) => String(row.version)],
            ["UPDATED", (row) => at(row.updatedAt)],
          ],
          `no rules in pool ${target.id}`,
        );
      },
    },
    create: {
      synopsis: "--pool <poolId> --name <name> --expression <cel> --action <json> [--mode shadow|enforce] [--max-per-hour <1-10000>]",
      options: {
        pool: { type: "string" },
        name: { type: "string" },
        expression: { type: "string" },
        action: { type: "string" },
        mode: { type: "string" },
        "max-per-hour": { type: "string" },
      },
      async run(context, values) {
        const target = await pool(context, values);
        const rule = parseAdminInput(createRuleInput, {
          tenantId: target.tenantId,
          poolId: target.id,
          name: required(values, "name", rules),
          expression: required(values, "expression", rules),
          action: actionOption(values),
          mode: text(values, "mode"),
          maxPerHour: maxPerHourOption(values),
        });
        const created = toRuleJson(await createRule({ db: context.db, pool: target, rule, actor: context.actor, now: context.now }));
        printOutcome(context, "created", `rule ${created.id} (${created.mode}) in pool ${target.id}`, { rule: created });
      },
    },
    delete: {
      synopsis: "--pool <poolId> --id <ruleId>",
      options: { pool: { type: "string" }, id: { type: "string" } },
      async run(context, values) {
        const target = await pool(context, values);
        const { ruleId } = parseAdminInput(z.strictObject({ ruleId: ruleIdField }), { ruleId: required(values, "id", rules) });
        await deleteRule({ db: context.db, pool: target, ruleId, actor: context.actor, now: context.now });
        printOutcome(context, "changed", `rule ${ruleId} deleted from pool ${target.id}`, { deleted: true });
      },
    },
    test: {
      synopsis: "--pool <poolId> (--id <ruleId> | --expression <cel> --action <json>)",
      options: { pool: { type: "string" }, id: { type: "string" }, expression: { type: "string" }, action: { type: "string" } },
      run: testVerb,
    },
  },
};
