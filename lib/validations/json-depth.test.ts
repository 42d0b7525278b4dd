import { describe, expect, it } from "vitest";
import { inventoryReportInput } from "./inventory";
import { pathBeyondDepth } from "./json-depth";

// SPEC G5: the nesting bound, measured without recursion.
const objects = (levels: number): unknown => {
  let value: unknown = "leaf";
  for (let level = 0; level < levels; level++) value = { a: value };
  return value;
};

describe("pathBeyondDepth", () => {
  it("a value's members are level 1; the first container past the bound is named by its path", () => {
    expect(pathBeyondDepth({ s: objects(32) }, 32)).toBeNull();
    expect(pathBeyondDepth({ s: objects(33) }, 32)).toEqual(["s", ...Array(32).fill("a")]);
    expect(pathBeyondDepth({ s: [[{ b: [1, [2]] }]] }, 4)).toEqual(["s", 0, 0, "b", 1]);
    expect(pathBeyondDepth({ s: [[{ b: [1, [2]] }]] }, 5)).toBeNull();
    expect(pathBeyondDepth("text", 0)).toBeNull();
    expect(pathBeyondDepth({ s: 1, t: null }, 0)).toBeNull();
  });

  it("a value nested 1,000,000 deep does not overflow the stack", () => {
    const deep = JSON.parse(`{"s":${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}}`);
    expect(pathBeyondDepth(deep, 32)).toHaveLength(33);
  });

  it("inventory/report refuses a too-deep section before its schema recurses, naming the path", () => {
    const result = inventoryReportInput.safeParse({ sections: { gpus: [objects(40)], deep: objects(3_000) } });
    expect(result.success).toBe(false);
    const issues = result.success ? [] : result.error.issues;
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path.slice(0, 2)).toEqual(["sections", expect.any(String)]);
    expect(issues[0]!.path).toHaveLength(34);
    expect(issues[0]!.message).toBe("is nested deeper than 32 levels");
  });
});
