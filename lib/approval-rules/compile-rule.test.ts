import { describe, expect, it } from "vitest";
import { compileRuleExpression, type CompiledExpression } from "./compile-rule";
import { MAX_COST } from "./check-expression";
import { SAMPLE_SUBJECTS } from "./sample-subjects";

const [known, unknown] = SAMPLE_SUBJECTS as [(typeof SAMPLE_SUBJECTS)[0], (typeof SAMPLE_SUBJECTS)[0]];

function compiled(source: string): CompiledExpression {
  const result = compileRuleExpression(source);
  if (!result.ok) throw new Error(result.error.message);
  return result.expression;
}

const problem = (source: string) => {
  const result = compileRuleExpression(source);
  if (result.ok) throw new Error(`expected ${source} to be refused`);
  return result.error;
};

describe("compileRuleExpression: what it refuses, with where", () => {
  it.each([
    ["an unknown variable", "requests.tpmProven", /unknown variable 'requests'/],
    ["an unknown field", "request.machine.hostnam == 'x'", /request\.machine has no field 'hostnam'/],
    ["a field of a scalar", "request.state.kind == 'x'", /string has no fields/],
    ["a string result", "request.machine.hostname", /must evaluate to bool, not string/],
    ["an int result", "size(request.reasons)", /must evaluate to bool, not int/],
    ["a wrong operand type", "request.machine.hostname + 1 == 'x'", /'\+' cannot take string and int/],
    ["a comparison of unlike types", "request.approvalsRequired < 'two'", /'<' cannot take int and string/],
    ["a non-bool operand of &&", "request.tpmProven && request.machine.hostname", /'&&' cannot take bool and string/],
    ["a string method on a list", "request.reasons.startsWith('x')", /'startsWith' applies to a string/],
    ["an unknown function, caught on the samples", "request.machine.hostname.lowerAscii() == 'x'", /unbound function|no matching overload/],
    ["a map literal that is not bool, caught on the samples", "{'a': 1}['a']", /must evaluate to bool/],
    ["a syntax error", "request.tpmProven &&", /syntax error/],
  ])("refuses %s", (_, source, message) => {
    expect(problem(source).message).toMatch(message);
  });

  it("names the position: line and column of the offending part", () => {
    const error = problem("request.tpmProven &&\n  request.machine.nope == 'x'");
    expect(error).toMatchObject({ line: 2, column: 18 });
    expect(error.message).toMatch(/\(line 2, column 18\)$/);
  });

  it("refuses more than 4 KiB, counted in UTF-8 bytes", () => {
    const long = `request.machine.hostname == '${"é".repeat(2040)}'`;
    expect(new TextEncoder().encode(long).length).toBeGreaterThan(4096);
    expect(problem(long).message).toMatch(/longer than 4096 bytes/);
  });

  it("refuses an expression whose bounded cost exceeds the limit (nested macros over big lists)", () => {
    const big = `[${Array.from({ length: 200 }, (_, i) => i).join(",")}]`;
    expect(problem(`${big}.all(x, ${big}.all(y, x + y >= 0))`).message).toMatch(new RegExp(`limit is ${MAX_COST}`));
    // the same over the declared, bounded lists is fine
    compiled("request.machine.macAddresses.all(m, request.machine.macAddresses.exists(n, n == m))");
  });
});

describe("evaluation", () => {
  it("reaches every variable: request (its machine, credential, tpmProven, reasons, approvals, timestamps), discovery, now", () => {
    const cases: [string, boolean, boolean][] = [
      ["request.machine.hostname.matches('^gpu-b-[0-9]+\\\\.fra1\\\\.acme\\\\.test$')", true, true],
      ["request.credential.kind == 'enrollment-key'", true, false],
      ["request.tpmProven", true, false],
      ["'unknown-to-discovery' in request.reasons", false, true],
      ["size(request.approvals) == 1 && request.approvals[0].ttlSeconds == 3600", true, false],
      ["request.createdAt <= now && now - request.createdAt < duration('1h')", true, true],
      ["discovery != null && discovery.assignedPoolId == 'gpu-b'", true, false],
      ["request.poolId == null", false, true],
      ["request.approvalsRequired == 1", true, true],
    ];
    for (const [source, onKnown, onUnknown] of cases) {
      const expression = compiled(source);
      expect(expression.evaluate(known), source).toEqual({ matched: onKnown });
      expect(expression.evaluate(unknown), source).toEqual({ matched: onUnknown });
    }
  });

  it("an evaluation error is an outcome, not a throw (null discovery, division by zero)", () => {
    expect(compiled("discovery.assignedPoolId == 'gpu-b'").evaluate(unknown)).toEqual({
      error: expect.stringMatching(/field not found|null/),
    });
    expect(compiled("1 / (request.approvalsRequired - 1) == 0").evaluate(known)).toEqual({
      error: expect.stringMatching(/divide by zero/),
    });
  });
});
