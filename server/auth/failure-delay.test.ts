import { describe, expect, it } from "vitest";
import { failureDelayMs } from "./sign-in-throttle";

describe("the wait a failed sign-in earns (SPEC G9)", () => {
  it("is 250 ms for the first failure, doubling, at most 2 s", () => {
    expect([1, 2, 3, 4, 5, 10].map(failureDelayMs)).toEqual([250, 500, 1000, 2000, 2000, 2000]);
  });
});
