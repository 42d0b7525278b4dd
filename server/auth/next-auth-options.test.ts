import { afterEach, describe, expect, it, vi } from "vitest";
import type { Account, Profile } from "next-auth";

// Runs against the seeded test database (SPEC Part C users).
const OIDC_ENV = {
  BC_OIDC_ISSUER: "https://idp.example.com/realms/acme",
  BC_OIDC_CLIENT_ID: "console",
  BC_OIDC_CLIENT_SECRET: "client-secret",
  NEXTAUTH_SECRET: "test-secret",
};

async function load(env: Record<string, string | undefined>) {
  vi.resetModules();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return import("./next-auth-options");
}
afterEach(() => vi.unstubAllEnvs());

const oidcAccount = { provider: "oidc", type: "oauth", providerAccountId: "sub-1" } as Account;

describe("nextAuthOptions", () => {
  it("offers local accounts only, unless all three BC_OIDC_* variables are set", async () => {
    const partial = await load({ ...OIDC_ENV, BC_OIDC_CLIENT_SECRET: undefined });
    expect((await partial.nextAuthOptions()).providers.map((provider) => provider.id)).toEqual(["credentials"]);
    const full = await load(OIDC_ENV);
    const providers = (await full.nextAuthOptions()).providers;
    expect(providers.map((provider) => provider.id)).toEqual(["credentials", "oidc"]);
    expect(providers[1]).toMatchObject({
      wellKnown: "https://idp.example.com/realms/acme/.well-known/openid-configuration",
      checks: ["pkce", "state"],
    });
  });

  it("uses JWT sessions and the console's own sign-in page", async () => {
    const options = await (await load(OIDC_ENV)).nextAuthOptions();
    expect(options.session?.strategy).toBe("jwt");
    expect(options.pages).toEqual({ signIn: "/signin", error: "/signin" });
  });

  it.each([
    ["a verified email with a users row", { email: "Admin@Acme.test", email_verified: true }, true],
    ["an unverified email", { email: "admin@acme.test", email_verified: false }, "/signin?error=OidcEmailNotVerified"],
    ["no email_verified claim (and no UserInfo to ask)", { email: "admin@acme.test" }, "/signin?error=OidcEmailNotVerified"],
    ["no email at all", { sub: "sub-1" }, "/signin?error=OidcNoEmail"],
    ["a verified email without a users row", { email: "stranger@acme.test", email_verified: true }, "/signin?error=OidcUnknownUser"],
  ])("lets an OIDC identity in only by verified email of a users row: %s", async (_name, profile, expected) => {
    const { callbacks } = await (await load(OIDC_ENV)).nextAuthOptions();
    const result = await callbacks!.signIn!({ account: oidcAccount, profile: profile as Profile, user: { id: "sub-1" } });
    expect(result).toBe(expected);
  });

  it("reads email and email_verified from UserInfo when the ID token lacks them, and only for the same subject", async () => {
    const userInfo = { sub: "sub-1", email: "viewer@acme.test", email_verified: true };
    const fetchMock = vi.fn(async (url: string | URL) => {
      const body = String(url).endsWith("/.well-known/openid-configuration")
        ? { userinfo_endpoint: "https://idp.example.com/userinfo" }
        : userInfo;
      return new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
    });
    vi.stubGlobal("fetch", fetchMock);
    try {
      const { callbacks } = await (await load(OIDC_ENV)).nextAuthOptions();
      const account = { ...oidcAccount, access_token: "at-1" };
      await expect(callbacks!.signIn!({ account, profile: { sub: "sub-1" } as Profile, user: { id: "sub-1" } })).resolves.toBe(true);
      const userInfoCall = fetchMock.mock.calls.find(([url]) => String(url) === "https://idp.example.com/userinfo");
      expect((userInfoCall as unknown as [string, RequestInit])[1].headers).toEqual({ authorization: "Bearer at-1" });
      userInfo.sub = "someone-else";
      await expect(callbacks!.signIn!({ account, profile: { sub: "sub-1" } as Profile, user: { id: "sub-1" } })).resolves.toBe(
        "/signin?error=OidcNoEmail",
      );
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("fails closed when the users row is gone by the jwt callback: no subject at all, never the provider's", async () => {
    const { callbacks } = await (await load(OIDC_ENV)).nextAuthOptions();
    const token = await callbacks!.jwt!({
      token: { sub: "idp-subject", email: "gone@acme.test" },
      account: oidcAccount,
      profile: { email: "gone@acme.test", email_verified: true } as Profile,
      user: { id: "idp-subject" },
    });
    expect(token.sub).toBeUndefined();
    expect(token.email).toBeUndefined();
  });

  it("refuses a disabled user, by password and by single sign-on", async () => {
    const { nextAuthOptions } = await load(OIDC_ENV);
    const { getDb } = await import("../db/client");
    const { hashPassword } = await import("./password");
    const email = `disabled-${Date.now()}@acme.test`;
    await (
      await getDb()
    ).user.create({
      data: { id: `usr_dis${Date.now()}`, email, name: "D", passwordHash: await hashPassword("a long password!"), disabledAt: new Date() },
    });
    const options = await nextAuthOptions();
    const credentials = options.providers[0] as unknown as { options: { authorize: (input: Record<string, string>) => Promise<unknown> } };
    await expect(credentials.options.authorize({ email, password: "a long password!" })).resolves.toBeNull();
    await expect(
      options.callbacks!.signIn!({ account: oidcAccount, profile: { email, email_verified: true } as Profile, user: { id: "x" } }),
    ).resolves.toBe("/signin?error=OidcUnknownUser");
  });

  it("makes the session's subject the users.id, for OIDC and for local accounts", async () => {
    const { callbacks } = await (await load(OIDC_ENV)).nextAuthOptions();
    const { getDb } = await import("../db/client");
    const admin = await (await getDb()).user.findUniqueOrThrow({ where: { email: "admin@acme.test" } });
    const jwt = callbacks!.jwt!;
    const viaOidc = await jwt({
      token: { sub: "idp-subject" },
      account: oidcAccount,
      profile: { email: "admin@acme.test", email_verified: true } as Profile,
      user: { id: "idp-subject" },
    });
    expect(viaOidc.sub).toBe(admin.id);
    const viaPassword = await jwt({
      token: {},
      account: { provider: "credentials", type: "credentials", providerAccountId: admin.id },
      user: { id: admin.id },
    });
    expect(viaPassword.sub).toBe(admin.id);
  });

  it("checks local passwords against users", async () => {
    const { nextAuthOptions } = await load(OIDC_ENV);
    const credentials = (await nextAuthOptions()).providers[0] as unknown as {
      options: { authorize: (input: Record<string, string>) => Promise<{ email: string } | null> };
    };
    await expect(credentials.options.authorize({ email: "viewer@acme.test", password: "demo-password-123" })).resolves.toMatchObject({
      email: "viewer@acme.test",
    });
    await expect(credentials.options.authorize({ email: "viewer@acme.test", password: "wrong" })).resolves.toBeNull();
    await expect(credentials.options.authorize({ email: "nobody@acme.test", password: "demo-password-123" })).resolves.toBeNull();
  });
});
