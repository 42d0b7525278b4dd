import { describe, expect, it } from "vitest";
import { sameOriginPath } from "./same-origin-path";

describe("sameOriginPath", () => {
  it.each([
    ["/pools/p1?state=pending#top", "/pools/p1?state=pending#top"],
    ["/", "/"],
    ["/webhooks", "/webhooks"],
  ])("keeps the path %s", (value, expected) => expect(sameOriginPath(value)).toBe(expected));

  it.each([
    "/\t/evil.example",
    "/\n/evil.example",
    "//evil.example",
    "/\\evil.example",
    "\\/evil.example",
    "/\t\\evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "evil.example",
    "",
    " /x",
  ])("refuses %j (another origin or not a path)", (value) => expect(sameOriginPath(value)).toBe("/"));

  it("refuses what is not one string", () => {
    expect(sameOriginPath(undefined)).toBe("/");
    expect(sameOriginPath(["/a", "/b"])).toBe("/");
  });
});
