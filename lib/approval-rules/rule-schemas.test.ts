import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createRuleInput, ruleActionField, testRuleInput, updateRuleInput } from "./rule-schemas";

const base = { tenantId: "acme", poolId: "gpu-b", name: "rack", expression: "request.tpmProven" };
const issues = (result: { success: boolean; error?: z.ZodError }) =>
  (result.error?.issues ?? []).map((issue) => `${issue.path.join(".")}: ${issue.message}`);

describe("rule schemas (SPEC H2)", () => {
  it("takes each action, and defaults approve's ttlSeconds and the mode", () => {
    expect(ruleActionField.parse({ approve: {} })).toEqual({ approve: { ttlSeconds: 3600 } });
    expect(ruleActionField.parse({ reject: { reason: "placeholder serial" } })).toEqual({ reject: { reason: "placeholder serial" } });
    expect(ruleActionField.parse({ requireApprovals: { count: 2 } })).toEqual({ requireApprovals: { count: 2 } });
    expect(createRuleInput.parse({ ...base, action: { reject: {} } }).mode).toBe("shadow");
  });

  it.each([
    [{ ...base, action: { approve: {} } }, "maxPerHour: is required for an approve rule (1 to 10000)"],
    [{ ...base, action: { reject: {} }, maxPerHour: 5 }, "maxPerHour: applies only to approve rules"],
    [{ ...base, action: { approve: {} }, maxPerHour: 10_001 }, "maxPerHour: must be an integer from 1 to 10000"],
    [{ ...base, action: { requireApprovals: { count: 1 } } }, "action.requireApprovals.count: must be an integer from 2 to 5"],
    [{ ...base, action: { approve: {}, reject: {} }, maxPerHour: 1 }, "action: must have exactly one of approve, reject, requireApprovals"],
    [{ ...base, action: {} }, "action: must have exactly one of approve, reject, requireApprovals"],
    [{ ...base, action: { reject: {} }, mode: "loud" }, "mode: must be one of enforce, shadow"],
    [{ ...base, action: { reject: {} }, expression: "x".repeat(4097) }, "expression: must be at most 4096 bytes (4 KiB)"],
    [{ ...base, action: { reject: {} }, expression: " " }, "expression: must not be empty"],
  ])("names the field: %j", (input, message) => {
    expect(issues(createRuleInput.safeParse(input))).toContain(message);
  });

  it("update takes any of the fields; test takes a draft or a ruleId, not both", () => {
    expect(
      updateRuleInput.safeParse({ tenantId: "acme", poolId: "gpu-b", ruleId: "rule_01jr0000000000000000000000", mode: "enforce" }).success,
    ).toBe(true);
    expect(issues(testRuleInput.safeParse({ tenantId: "acme", poolId: "gpu-b" }))).toEqual([
      "rule: give exactly one of rule (a draft) or ruleId",
    ]);
  });
});
