import { afterEach, describe, expect, it, vi } from "vitest";

// env() is parsed once per module instance: each case imports afresh.
async function load(nextAuthUrl?: string) {
  vi.resetModules();
  if (nextAuthUrl) vi.stubEnv("NEXTAUTH_URL", nextAuthUrl);
  else vi.stubEnv("NEXTAUTH_URL", undefined);
  return import("./console-origin");
}
afterEach(() => vi.unstubAllEnvs());

const post = (url: string, headers: Record<string, string>) => new Request(url, { method: "POST", headers });

describe("assertSameOriginMutation", () => {
  it("accepts the console's own origin (NEXTAUTH_URL's)", async () => {
    const { assertSameOriginMutation } = await load("https://console.example.com/base");
    expect(() =>
      assertSameOriginMutation(post("http://10.0.0.5:3000/api/compute/x", { origin: "https://console.example.com" })),
    ).not.toThrow();
  });

  it.each([
    ["a foreign origin", { origin: "https://evil.example" }, /not https:\/\/evil\.example/],
    ["no Origin", {}, /must carry the console's Origin/],
    ["another port", { origin: "https://console.example.com:8443" }, /cross-origin/],
  ])("refuses %s with PERMISSION_DENIED", async (_name, headers, message) => {
    const { assertSameOriginMutation } = await load("https://console.example.com");
    try {
      assertSameOriginMutation(post("https://console.example.com/api/compute/x", headers));
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: "PERMISSION_DENIED" });
      expect((error as Error).message).toMatch(message);
    }
  });

  it("without NEXTAUTH_URL, compares with the Host the request was sent to", async () => {
    const { assertSameOriginMutation } = await load();
    const request = (origin: string) => post("http://localhost:3000/api/compute/x", { origin, host: "localhost:3000" });
    expect(() => assertSameOriginMutation(request("http://localhost:3000"))).not.toThrow();
    expect(() => assertSameOriginMutation(request("http://localhost:3001"))).toThrow(/cross-origin/);
  });
});
