import { describe, expect, it } from "vitest";
import { bootStatePcrSelection, bootStatesField, matchBootState, readStoredBootStates } from "./boot-states";

const a = "a".repeat(64);
const b = "b".repeat(64);
const c = "c".repeat(64);

describe("boot states (SPEC I2)", () => {
  it("accepts named states over SHA-256 values", () => {
    expect(bootStatesField.parse([{ name: "ubuntu-24.04", pcrs: { "0": a, "7": b } }])).toHaveLength(1);
  });

  it.each([
    [[{ name: "", pcrs: { "0": a } }], "must not be empty"],
    [[{ name: "x", pcrs: {} }], "must name at least one PCR"],
    [[{ name: "x", pcrs: { "24": a } }], '"24" is not a PCR index'],
    [[{ name: "x", pcrs: { "00": a } }], '"00" is not a PCR index'],
    [[{ name: "x", pcrs: { "0": "A".repeat(64) } }], "lowercase hex"],
    [[{ name: "x", pcrs: { "0": a.slice(1) } }], "lowercase hex"],
    [
      [
        { name: "x", pcrs: { "0": a } },
        { name: "X", pcrs: { "0": b } },
      ],
      '"X" is named twice',
    ],
  ])("refuses %j naming what is wrong", (input, message) => {
    const parsed = bootStatesField.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message).join("; ")).toContain(message);
  });

  it("asks for every PCR any state names, ascending", () => {
    expect(
      bootStatePcrSelection([
        { name: "x", pcrs: { "7": a, "0": a } },
        { name: "y", pcrs: { "4": b, "0": b } },
      ]),
    ).toEqual([0, 4, 7]);
    expect(bootStatePcrSelection([])).toEqual([]);
  });

  it("matches the first state whose every PCR agrees, ignoring PCRs it does not name", () => {
    const states = [
      { name: "old", pcrs: { "0": a, "7": c } },
      { name: "new", pcrs: { "0": a, "7": b } },
    ];
    expect(matchBootState(states, { "0": a, "7": b, "4": c })).toBe("new");
    expect(matchBootState(states, { "0": a, "7": a })).toBeNull();
    expect(matchBootState(states, { "0": a })).toBeNull();
    expect(matchBootState([], { "0": a })).toBeNull();
  });

  it("reads a stored value that no longer parses as no states", () => {
    expect(readStoredBootStates([{ name: "x" }])).toEqual([]);
    expect(readStoredBootStates([{ name: "x", pcrs: { "0": a } }])).toHaveLength(1);
  });
});
