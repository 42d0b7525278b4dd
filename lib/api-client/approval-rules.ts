import type { z } from "zod";
import type {
  createRuleInput,
  ListedRuleJson,
  RuleJson,
  TestRuleAnswer,
  testRuleInput,
  updateRuleInput,
} from "@/lib/approval-rules/rule-schemas";
import { callMethod } from "./call-method";

// Typed calls of approvalRules/* (SPEC H2) the console's Rules page makes.
type PoolScope = { tenantId: string; poolId: string };

export const listRules = (input: PoolScope, signal?: AbortSignal) =>
  callMethod<{ rules: ListedRuleJson[] }>("approvalRules/list", input, signal);
export const createRule = (input: z.input<typeof createRuleInput>) => callMethod<{ rule: RuleJson }>("approvalRules/create", input);
export const updateRule = (input: z.input<typeof updateRuleInput>) => callMethod<{ rule: RuleJson }>("approvalRules/update", input);
export const deleteRule = (input: PoolScope & { ruleId: string }) => callMethod<{ deleted: true }>("approvalRules/delete", input);
export const reorderRules = (input: PoolScope & { ruleIds: string[] }) => callMethod<{ rules: RuleJson[] }>("approvalRules/reorder", input);
export const testRule = (input: z.input<typeof testRuleInput>, signal?: AbortSignal) =>
  callMethod<TestRuleAnswer>("approvalRules/test", input, signal);
