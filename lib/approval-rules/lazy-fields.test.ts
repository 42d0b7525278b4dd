import { celEnv, CelScalar, mapType, parse, plan } from "@bufbuild/cel";
import { describe, expect, it } from "vitest";
import { LazyFields } from "./lazy-fields";
import { REQUEST_SHAPE, ruleBindings } from "./rule-variables";
import { SAMPLE_SUBJECTS } from "./sample-subjects";

const env = celEnv({ variables: { m: mapType(CelScalar.STRING, CelScalar.DYN) } });
const evaluate = (source: string, m: Map<string, unknown>) => plan(env, parse(source))({ m } as never);

describe("LazyFields", () => {
  it("makes a field only when the expression reads it", () => {
    const made: string[] = [];
    const fields = new LazyFields(made, {
      a: (log) => (log.push("a"), "x"),
      b: (log) => (log.push("b"), 2n),
    });
    expect(evaluate("m.a == 'x'", fields)).toBe(true);
    expect(made).toEqual(["a"]);
  });

  it("reads as a whole map to `in`, size() and the macros over its keys", () => {
    const fields = new LazyFields(null, { a: () => "x", b: () => 2n, c: () => null });
    expect(evaluate("'b' in m && !('z' in m)", fields)).toBe(true);
    expect(evaluate("size(m)", fields)).toBe(3n);
    expect(evaluate("m.exists(k, k == 'c') && m.all(k, k.size() == 1)", fields)).toBe(true);
    expect(evaluate("m.c == null && m.b == 2", fields)).toBe(true);
    expect([...fields.entries()]).toEqual([
      ["a", "x"],
      ["b", 2n],
      ["c", null],
    ]);
  });

  it("the request binds exactly the fields SPEC H2 declares", () => {
    const declared = REQUEST_SHAPE.kind === "object" ? Object.keys(REQUEST_SHAPE.fields) : [];
    expect([...ruleBindings(SAMPLE_SUBJECTS[0]!).request.keys()].sort()).toEqual(declared.sort());
  });
});
