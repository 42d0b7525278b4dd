import { describe, expect, it } from "vitest";
import { pageContentSecurityPolicy, servedOverHttps } from "./security-headers";

describe("servedOverHttps", () => {
  const plain = new URL("http://console.test/api/compute/joinRequests/list");
  it("is true for an https URL, a proxy's first X-Forwarded-Proto of https, or an https configured URL", () => {
    expect(servedOverHttps(new URL("https://console.test/"), new Headers(), "")).toBe(true);
    expect(servedOverHttps(plain, new Headers({ "x-forwarded-proto": "https, http" }), "")).toBe(true);
    expect(servedOverHttps(plain, new Headers(), "https://console.test")).toBe(true);
  });
  it("is false for plain http, a proxy that says http first, or an http configured URL", () => {
    expect(servedOverHttps(plain, new Headers(), "")).toBe(false);
    expect(servedOverHttps(plain, new Headers({ "x-forwarded-proto": "http, https" }), "http://console.test")).toBe(false);
  });
});

describe("pageContentSecurityPolicy", () => {
  it("allows scripts by this answer's nonce, evals only for development's tooling, and never framing", () => {
    expect(pageContentSecurityPolicy("abc", false)).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic';");
    expect(pageContentSecurityPolicy("abc", false)).not.toContain("unsafe-eval");
    expect(pageContentSecurityPolicy("abc", true)).toContain("'strict-dynamic' 'unsafe-eval'");
    expect(pageContentSecurityPolicy("abc", false)).toMatch(/frame-ancestors 'none'$/);
  });
});
