import { describe, expect, it } from "vitest";
import { scrapeAccess } from "./scrape-access";

const TOKEN = "a-metrics-token-of-some-length";

describe("scrapeAccess", () => {
  it.each([
    ["no token configured: not served, whatever is sent", null, undefined, "not-served"],
    ["no token configured, a bearer sent", `Bearer ${TOKEN}`, undefined, "not-served"],
    ["no Authorization header", null, TOKEN, "unauthorized"],
    ["a wrong bearer", "Bearer nope", TOKEN, "unauthorized"],
    ["the token with one more character", `Bearer ${TOKEN}x`, TOKEN, "unauthorized"],
    ["the token but not as a bearer", TOKEN, TOKEN, "unauthorized"],
    ["the right bearer", `Bearer ${TOKEN}`, TOKEN, "allowed"],
  ] as const)("%s", (_case, header, token, expected) => {
    expect(scrapeAccess(header, token)).toBe(expected);
  });
});
