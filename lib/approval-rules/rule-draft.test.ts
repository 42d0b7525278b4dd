import { describe, expect, it } from "vitest";
import { describeAction, draftFieldOf, draftFields, draftOf, draftTestRule, EMPTY_DRAFT, movedOrder } from "./rule-draft";

describe("the editor's draft", () => {
  it("an approve rule sends its ttl and maxPerHour as numbers", () => {
    const draft = { ...EMPTY_DRAFT, name: "  rack ", expression: "true", ttlSeconds: "900", maxPerHour: "20" };
    expect(draftFields(draft)).toEqual({
      name: "rack",
      expression: "true",
      action: { approve: { ttlSeconds: 900 } },
      mode: "shadow",
      maxPerHour: 20,
    });
  });
  it("a reject or require rule sends no maxPerHour; an empty reason is left out", () => {
    expect(draftFields({ ...EMPTY_DRAFT, kind: "reject", reason: " " })).not.toHaveProperty("maxPerHour");
    expect(draftAction({ kind: "reject", reason: " no " })).toEqual({ reject: { reason: "no" } });
    expect(draftTestRule({ ...EMPTY_DRAFT, kind: "requireApprovals", count: "3", expression: "x" })).toEqual({
      expression: "x",
      action: { requireApprovals: { count: 3 } },
    });
  });
  it("a number half typed is sent as typed, so the server's 400 names its field", () => {
    expect(draftFields({ ...EMPTY_DRAFT, maxPerHour: "1e3" }).maxPerHour).toBe("1e3");
    expect(draftAction({ kind: "approve", ttlSeconds: "" })).toEqual({ approve: { ttlSeconds: "" } });
  });
  it("a stored rule becomes the draft it would save back unchanged", () => {
    const rule = { name: "r", expression: "true", action: { reject: { reason: "why" } }, mode: "enforce" as const, maxPerHour: null };
    const draft = draftOf(rule);
    expect(draft).toMatchObject({ kind: "reject", reason: "why", mode: "enforce" });
    expect(draftFields(draft)).toEqual({ name: "r", expression: "true", action: { reject: { reason: "why" } }, mode: "enforce" });
    const approve = draftOf({ ...rule, action: { approve: { ttlSeconds: 600 } }, maxPerHour: 7 });
    expect(draftFields(approve)).toMatchObject({ action: { approve: { ttlSeconds: 600 } }, maxPerHour: 7 });
  });
});

// draftAction through draftFields' shape, for the partial drafts above
function draftAction(partial: Partial<typeof EMPTY_DRAFT>) {
  return draftFields({ ...EMPTY_DRAFT, ...partial }).action;
}

describe("describeAction", () => {
  it.each([
    [{ approve: { ttlSeconds: 3600 } }, "approve for 1 h"],
    [{ approve: { ttlSeconds: 900 } }, "approve for 15 min"],
    [{ approve: { ttlSeconds: 61 } }, "approve for 61 s"],
    [{ reject: {} }, "reject"],
    [{ reject: { reason: "no TPM" } }, "reject: “no TPM”"],
    [{ requireApprovals: { count: 3 } }, "require 3 approvals"],
  ])("%j → %s", (action, text) => expect(describeAction(action)).toBe(text));
});

describe("movedOrder", () => {
  const ids = ["a", "b", "c"];
  it("swaps with the neighbour", () => {
    expect(movedOrder(ids, 1, -1)).toEqual(["b", "a", "c"]);
    expect(movedOrder(ids, 1, 1)).toEqual(["a", "c", "b"]);
  });
  it("the first cannot go up, the last cannot go down", () => {
    expect(movedOrder(ids, 0, -1)).toEqual(ids);
    expect(movedOrder(ids, 2, 1)).toEqual(ids);
    expect(movedOrder(ids, 5, 1)).toEqual(ids);
  });
});

describe("draftFieldOf", () => {
  it.each([
    ["name", "name"],
    ["expression", "expression"],
    ["rule.expression", "expression"],
    ["maxPerHour", "maxPerHour"],
    ["action.approve.ttlSeconds", "ttlSeconds"],
    ["rule.action.requireApprovals.count", "count"],
    ["action.reject.reason", "reason"],
    ["action", "kind"],
    ["ruleId", null],
    ["tenantId", null],
  ])("%s → %s", (field, draftField) => expect(draftFieldOf(field)).toBe(draftField));
});
