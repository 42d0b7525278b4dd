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
    expect(providers[1]).toMatchObject({ wellKnown: "https://idp.example.com/realms/acme/.well-known/openid-configuration", checks: ["pkce", "state"] });
  });

  it("uses JWT sessions and the console's own sign-in page", async () => {
    const options = await (await load(OIDC_ENV)).nextAuthOptions();
    expect(options.session?.strategy).toBe("jwt");
    expect(options.pages).toEqual({ signIn: "/signin", error: "/signin" });
  });

  it.each([
    ["a verified email with a users row", { email: "Admin@Acme.test", email_verified: true }, true],
    ["an unverified email", { email: "admin@acme.test", email_verified: false }, false],
    ["no email_verified claim", { email: "admin@acme.test" }, false],
    ["a verified email without a users row", { email: "stranger@acme.test", email_verified: true }, false],
  ])("lets an OIDC identity in only by verified email of a users row: %s", async (_name, profile, allowed) => {
    const { callbacks } = await (await load(OIDC_ENV)).nextAuthOptions();
    const result = await callbacks!.signIn!({ account: oidcAccount, profile: profile as Profile, user: { id: "sub-1" } });
    expect(result).toBe(allowed);
  });

  it("makes the session's subject the users.id, for OIDC and for local accounts", async () => {
    const { callbacks } = await (await load(OIDC_ENV)).nextAuthOptions();
    const { getDb } = await import("../db/client");
    const admin = await (await getDb()).user.findUniqueOrThrow({ where: { email: "admin@acme.test" } });
    const jwt = callbacks!.jwt!;
    const viaOidc = await jwt({ token: { sub: "idp-subject" }, account: oidcAccount, profile: { email: "admin@acme.test", email_verified: true } as Profile, user: { id: "idp-subject" } });
    expect(viaOidc.sub).toBe(admin.id);
    const viaPassword = await jwt({ token: {}, account: { provider: "credentials", type: "credentials", providerAccountId: admin.id }, user: { id: admin.id } });
    expect(viaPassword.sub).toBe(admin.id);
  });

  it("checks local passwords against users", async () => {
    const { nextAuthOptions } = await load(OIDC_ENV);
    const credentials = (await nextAuthOptions()).providers[0] as unknown as {
      options: { authorize: (input: Record<string, string>) => Promise<{ email: string } | null> };
    };
    await expect(credentials.options.authorize({ email: "viewer@acme.test", password: "demo-password-123" })).resolves.toMatchObject({ email: "viewer@acme.test" });
    await expect(credentials.options.authorize({ email: "viewer@acme.test", password: "wrong" })).resolves.toBeNull();
    await expect(credentials.options.authorize({ email: "nobody@acme.test", password: "demo-password-123" })).resolves.toBeNull();
  });
});
