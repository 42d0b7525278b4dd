import { describe, expect, it } from "vitest";
import { floorAllowed } from "./serve-floor";

describe("who reaches the benchmark's Next.js floor", () => {
  const token = "t".repeat(43);
  it("only a call carrying the token, and only when one is set", () => {
    expect(floorAllowed(token, token)).toBe(true);
    expect(floorAllowed(token, undefined)).toBe(false);
    expect(floorAllowed(null, token)).toBe(false);
    expect(floorAllowed("", token)).toBe(false);
    expect(floorAllowed(`${token}x`, token)).toBe(false);
    expect(floorAllowed(token.slice(1), token)).toBe(false);
  });
});
