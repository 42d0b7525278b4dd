import { encode } from "next-auth/jwt";
import { afterEach, describe, expect, it, vi } from "vitest";

// A console session (next-auth's encrypted JWT cookie) as a Principal with the
// user's current grants. Runs against the seeded test database.
async function load(env: Record<string, string | undefined>) {
  vi.resetModules();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.stubEnv("BC_LOG_LEVEL", "silent");
  const sessionPrincipal = await import("./session-principal");
  const { getDb } = await import("../db/client");
  return { ...sessionPrincipal, db: await getDb() };
}
afterEach(() => vi.unstubAllEnvs());

const SECRET = "session-test-secret";
const cookieFor = async (sub: string, secret = SECRET) => ({ "next-auth.session-token": await encode({ token: { sub }, secret }) });

describe("principalFromSession", () => {
  it("is the user with their grants, from a valid session cookie", async () => {
    const { principalFromSession, db } = await load({ NEXTAUTH_SECRET: SECRET });
    const viewer = await db.user.findUniqueOrThrow({ where: { email: "viewer@acme.test" } });
    const session = await principalFromSession(db, await cookieFor(viewer.id));
    expect(session?.user.email).toBe("viewer@acme.test");
    expect(session?.principal).toEqual({
      kind: "user",
      id: viewer.id,
      grants: [{ tenantId: "acme", poolId: null, role: "pool_viewer" }],
    });
  });

  it.each([
    ["no cookie", async () => ({})],
    ["a forged cookie", async () => ({ "next-auth.session-token": "not.a.jwe" })],
    ["a cookie made with another secret", () => cookieFor("usr_x", "another-secret")],
    ["a user who no longer exists", () => cookieFor("usr_01m8vr0000000000000000000")],
  ])("is null for %s", async (_name, jar) => {
    const { principalFromSession, db } = await load({ NEXTAUTH_SECRET: SECRET });
    await expect(principalFromSession(db, await jar())).resolves.toBeNull();
  });

  it("is null once the user is disabled (users disable ends open sessions at their next request)", async () => {
    const { principalFromSession, db } = await load({ NEXTAUTH_SECRET: SECRET });
    const user = await db.user.create({
      data: { id: `usr_disabled${Date.now()}`, email: `disabled-${Date.now()}@example.test`, name: "D" },
    });
    const cookie = await cookieFor(user.id);
    expect(await principalFromSession(db, cookie)).not.toBeNull();
    await db.user.update({ where: { id: user.id }, data: { disabledAt: new Date() } });
    await expect(principalFromSession(db, cookie)).resolves.toBeNull();
  });

  it("is null when sign-in is not configured (DATABASE_URL without NEXTAUTH_SECRET)", async () => {
    const { principalFromSession, db } = await load({ NEXTAUTH_SECRET: undefined });
    await expect(principalFromSession(db, await cookieFor("usr_x"))).resolves.toBeNull();
  });
});

describe("parseCookieHeader / hasSessionCookie", () => {
  it("reads a Cookie header and recognises next-auth's session cookie, chunked or secure", async () => {
    const { parseCookieHeader, hasSessionCookie } = await load({});
    expect(parseCookieHeader("a=1; next-auth.session-token.0=x%3Dy; b")).toEqual({ a: "1", "next-auth.session-token.0": "x=y" });
    expect(hasSessionCookie({ "__Secure-next-auth.session-token": "x" })).toBe(true);
    expect(hasSessionCookie({ "next-auth.session-token.1": "x" })).toBe(true);
    expect(hasSessionCookie({ "next-auth.csrf-token": "x" })).toBe(false);
  });
});
