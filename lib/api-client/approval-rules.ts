import type { z } from "zod";
import type { DraftFields } from "@/lib/approval-rules/rule-draft";
import type { ListedRuleJson, RuleJson, TestRuleAnswer, testRuleInput } from "@/lib/approval-rules/rule-schemas";
import { callMethod } from "./call-method";

// Typed calls of approvalRules/* (SPEC H2) the console's Rules page makes.
type PoolScope = { tenantId: string; poolId: string };

export const listRules = (input: PoolScope, signal?: AbortSignal) =>
  callMethod<{ rules: ListedRuleJson[] }>("approvalRules/list", input, signal);
// create and update send the editor's fields as typed (a half-typed number as
// its text): the server's 400 names the field, and the editor shows it there.
export const createRule = (input: PoolScope & DraftFields) => callMethod<{ rule: RuleJson }>("approvalRules/create", input);
export const updateRule = (input: PoolScope & Partial<DraftFields> & { ruleId: string }) =>
  callMethod<{ rule: RuleJson }>("approvalRules/update", input);
export const deleteRule = (input: PoolScope & { ruleId: string }) => callMethod<{ deleted: true }>("approvalRules/delete", input);
export const reorderRules = (input: PoolScope & { ruleIds: string[] }) => callMethod<{ rules: RuleJson[] }>("approvalRules/reorder", input);
export const testRule = (input: z.input<typeof testRuleInput>, signal?: AbortSignal) =>
  callMethod<TestRuleAnswer>("approvalRules/test", input, signal);
