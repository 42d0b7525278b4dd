import { describe, expect, it } from "vitest";
import { isRulePrincipal, parseRulePrincipal } from "./rule-principal";

const id = "rule_01jd8x0w6q9v3k2m4n5p7r8s9t";

describe("parseRulePrincipal", () => {
  it("reads rule:<id>@<version>", () => {
    expect(parseRulePrincipal(`rule:${id}@3`)).toEqual({ ruleId: id, version: 3 });
    expect(isRulePrincipal(`rule:${id}@1`)).toBe(true);
  });
  it.each([
    null,
    undefined,
    "",
    "usr_01",
    `rule:${id}`,
    `rule:${id}@0`,
    `rule:${id}@x`,
    `rule:rule_short@1`,
    ` rule:${id}@1`,
    `rule:${id}@1 `,
  ])("%j is no rule", (actor) => expect(parseRulePrincipal(actor)).toBeNull());
});
