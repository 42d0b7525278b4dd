import { describe, expect, it } from "vitest";
import { cachedRe2 } from "./cached-re2";
import { compileRuleExpression } from "./compile-rule";
import { SAMPLE_SUBJECTS } from "./sample-subjects";

describe("CEL's matches with each pattern compiled once", () => {
  it("answers as RE2 does and hands back the same matcher for the same pattern", () => {
    const re2 = cachedRe2();
    const matcher = re2.compile("^gpu-b-r07-[0-9]+$");
    expect(matcher.test("gpu-b-r07-001")).toBe(true);
    expect(matcher.test("gpu-b-r08-001")).toBe(false);
    expect(re2.compile("^gpu-b-r07-[0-9]+$")).toBe(matcher);
  });

  it("keeps at most 256 patterns, dropping the oldest", () => {
    const re2 = cachedRe2();
    const first = re2.compile("^p0$");
    for (let i = 1; i <= 256; i++) re2.compile(`^p${i}$`);
    expect(re2.compile("^p256$")).toBe(re2.compile("^p256$"));
    expect(re2.compile("^p0$")).not.toBe(first);
  });

  it("an invalid pattern is still the rule's evaluation error, not a throw", () => {
    const compiled = compileRuleExpression('request.machine.hostname.matches("a(")');
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    const outcome = compiled.expression.evaluate(SAMPLE_SUBJECTS[0]!);
    expect("error" in outcome && outcome.error).toMatch(/missing closing \)|a\(/);
  });
});
