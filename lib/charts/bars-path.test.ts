import { describe, expect, it } from "vitest";
import { barsPath } from "./bars-path";

describe("a series' bars as one path", () => {
  it("draws each bar as a closed rectangle from its top-left corner", () => {
    expect(
      barsPath([
        { x: 0, top: 40, width: 7.5, height: 16 },
        { x: 10, top: 20, width: 7.5, height: 36 },
      ]),
    ).toBe("M0,40h7.5v16h-7.5zM10,20h7.5v36h-7.5z");
  });

  it("leaves out bars of no height, and draws nothing for none", () => {
    expect(barsPath([{ x: 0, top: 56, width: 7.5, height: 0 }])).toBe("");
    expect(barsPath([])).toBe("");
  });

  it("rounds to two decimals", () => {
    expect(barsPath([{ x: 1 / 3, top: 2 / 3, width: 7.4999, height: 10.005 }])).toBe("M0.33,0.67h7.5v10.01h-7.5z");
  });
});
