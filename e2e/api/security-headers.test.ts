import { describe, expect, it } from "vitest";
import { apiUrl, callMethod, rawPost } from "@/test/api/api-client";
import { createWorld } from "@/test/api/world";

// Issue 14 items 4 and 9 (a, c), over HTTP against the real `next start`
// (sign-in itself is tested in e2e/browser).

const get = (path: string, headers: Record<string, string> = {}) => fetch(apiUrl(path), { headers, redirect: "manual" });

describe("security headers", () => {
  it.each([
    ["the sign-in page", "/signin"],
    ["a console page (redirected to sign-in)", "/pools/gpu-a"],
    ["the health API", "/api/health"],
    ["an unknown API path", "/api/nope"],
    ["a path under /api/compute that names no method", "/api/compute/nope"],
    ["next-auth", "/api/auth/csrf"],
  ])("%s: CSP without framing or inline script but by nonce, nosniff, Referrer-Policy, no X-Powered-By", async (_what, path) => {
    const response = await get(path);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}' 'strict-dynamic'(;|$)/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("x-powered-by")).toBeNull();
    expect(response.headers.get("strict-transport-security")).toBeNull(); // plain http here
  });

  // The published methods are kept off proxy.ts's path (it cost each call about
  // 0.6 ms, issue 16) and set their own headers: a JSON answer may load and run nothing.
  it("a method's every answer: a CSP that allows nothing and no framing, nosniff, Referrer-Policy, no X-Powered-By", async () => {
    const world = await createWorld();
    const answers = {
      200: await callMethod("joinRequests/list", { tenantId: world.tenantId, poolId: world.pools.a }, { bearer: world.keys.admin }),
      400: await callMethod(
        "joinRequests/list",
        { tenantId: world.tenantId, poolId: world.pools.a, limit: "many" },
        { bearer: world.keys.admin },
      ),
      401: await callMethod("joinRequests/list", { tenantId: world.tenantId, poolId: world.pools.a }),
      404: await callMethod("joinRequests/nope", {}, { bearer: world.keys.admin }),
      405: await callMethod("joinRequests/list", undefined, { httpMethod: "GET" }),
    };
    for (const [status, answer] of Object.entries(answers)) {
      expect(answer.status, `the ${status} answer`).toBe(Number(status));
      expect(answer.headers.get("content-security-policy"), `the ${status} answer`).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
      expect(answer.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(answer.headers.get("x-powered-by")).toBeNull();
      expect(answer.headers.get("strict-transport-security")).toBeNull(); // plain http here
    }
  });

  it("static assets are nosniff too", async () => {
    const response = await get("/icon.svg");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("every inline script of a page carries this answer's nonce, a fresh one per answer", async () => {
    const [first, second] = [await get("/signin"), await get("/signin")];
    const nonceOf = (response: Response) => /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
    const nonce = nonceOf(first)!;
    expect(nonce).not.toBe(nonceOf(second));
    const html = await first.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("HSTS when a TLS-terminating proxy says the request came over https", async () => {
    for (const path of ["/signin", "/api/health"]) {
      const response = await get(path, { "x-forwarded-proto": "https" });
      expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    }
    for (const httpMethod of ["POST", "GET"]) {
      const answer = await callMethod("joinRequests/list", {}, { httpMethod, headers: { "x-forwarded-proto": "https" } });
      expect(answer.status).toBe(httpMethod === "POST" ? 401 : 405);
      expect(answer.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    }
  });
});

describe("sign-in hardening", () => {
  it.each([false, true])("an /api/auth body over 8 KiB is 413, chunked: %s", async (chunked) => {
    const body = `csrfToken=x&email=a%40b.test&password=${"p".repeat(9 * 1024)}`;
    const response = await rawPost("/api/auth/callback/credentials", body, {
      chunked,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({
      error: { code: "PAYLOAD_TOO_LARGE", message: "request body is larger than 8192 bytes (8 KiB)" },
    });
  });

  it("a small /api/auth body is not refused for its size (sign-in itself: e2e/browser)", async () => {
    const response = await rawPost("/api/auth/callback/credentials", "csrfToken=x&email=a%40b.test&password=p", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).not.toBe(413);
  });

  it("with DATABASE_URL and no BC_DEMO_MODE the sign-in page lists no demo accounts", async () => {
    const html = await (await get("/signin")).text();
    expect(html).toContain("Sign in");
    expect(html).not.toContain("Demo accounts");
    expect(html).not.toContain("admin@acme.test");
  });
});
