import { describe, expect, it } from "vitest";
import { compileRuleExpression } from "@/lib/approval-rules/compile-rule";
import { SAMPLE_SUBJECTS } from "@/lib/approval-rules/sample-subjects";
import type { RuleSubject } from "@/lib/approval-rules/rule-variables";
import { DEMO_RULES } from "./demo-rules";

// The demo rules compile and match what their names say (SPEC H2's demo data).
function compile(source: string) {
  const compiled = compileRuleExpression(source);
  if (!compiled.ok) throw new Error(compiled.error.message);
  return compiled.expression;
}
const [gpuB, gpuC] = DEMO_RULES.map((rule) => compile(rule.expression)) as [ReturnType<typeof compile>, ReturnType<typeof compile>];

const base = SAMPLE_SUBJECTS[0]!;
const subject = (hostname: string, credential: RuleSubject["credential"], request: Partial<RuleSubject["request"]> = {}): RuleSubject => ({
  ...base,
  credential,
  request: { ...base.request, ...request, machine: { ...base.request.machine, hostname, ...request.machine } },
});
const fra1 = { kind: "enrollment-key", id: "demofra1" } as const;

describe("demo rules", () => {
  it("gpu-b: hostnames gpu-b-*.fra1.acme.test from the fra1 enrollment key, nothing else", () => {
    expect(gpuB.evaluate(subject("gpu-b-017.fra1.acme.test", fra1))).toEqual({ matched: true });
    expect(gpuB.evaluate(subject("gpu-b-017.fra1.acme.test", { kind: "join-token", id: "demogpub" }))).toEqual({ matched: false });
    expect(gpuB.evaluate(subject("gpu-b-017.ams1.acme.test", fra1))).toEqual({ matched: false });
    expect(gpuB.evaluate(subject("gpu-b-017xfra1.acme.test", fra1))).toEqual({ matched: false });
  });

  it("gpu-c: placeholder serials with no proven TPM, in gpu-c only", () => {
    const placeholder = { poolId: "gpu-c", reasons: ["placeholder-hardware-id" as const] };
    expect(gpuC.evaluate(subject("h", fra1, { ...placeholder, machine: { ...base.request.machine, tpmEkProven: false } }))).toEqual({
      matched: true,
    });
    expect(gpuC.evaluate(subject("h", fra1, placeholder))).toEqual({ matched: false });
    expect(gpuC.evaluate(subject("h", fra1, { ...placeholder, poolId: null }))).toEqual({ matched: false });
    expect(DEMO_RULES.filter((rule) => rule.mode === "enforce").map((rule) => rule.poolId)).toEqual(["gpu-c"]);
  });
});
