import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { freePort, startAppServer, type AppServer } from "@/test/harness/start-app-server";
import { startOidcProvider, type TestOidcProvider } from "@/test/browser/oidc-provider";

// Single sign-on with a standard OpenID provider (issue 17): a real provider
// (oidc-provider) on loopback, its own login and consent pages, both claim
// placements (email in the ID token, or only from UserInfo), and the refusals
// the sign-in page explains. The app server here has BC_OIDC_* set.

const n = randomBytes(4).toString("hex");
const users = { idToken: `sso-idtoken-${n}@acme.test`, userInfo: `sso-userinfo-${n}@acme.test` };
let provider: TestOidcProvider;
let server: AppServer;

async function query(sql: string, params: unknown[]) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql, params);
  } finally {
    await client.end();
  }
}

test.beforeAll(async () => {
  // SSO-only users (no password), pool-viewers of acme: what `npm run admin -- users create` without --password-stdin makes
  for (const email of Object.values(users)) {
    const id = `usr_sso${randomBytes(6).toString("hex")}`;
    await query("INSERT INTO users (id, email, name) VALUES ($1, $2, $3)", [id, email, email]);
    await query("INSERT INTO role_grants (id, tenant_id, pool_id, role, user_id) VALUES ($1, 'acme', NULL, 'pool_viewer', $2)", [
      `grant_sso${randomBytes(6).toString("hex")}`,
      id,
    ]);
  }
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  provider = await startOidcProvider({
    redirectUri: `${appUrl}/api/auth/callback/oidc`,
    accounts: {
      "alice-idtoken": { email: users.idToken, emailVerified: true, claimsIn: "id_token" },
      "bob-userinfo": { email: users.userInfo, emailVerified: true, claimsIn: "userinfo" },
      "carol-unverified": { email: users.idToken, emailVerified: false, claimsIn: "userinfo" },
      "dave-stranger": { email: `stranger-${n}@acme.test`, emailVerified: true, claimsIn: "userinfo" },
    },
  });
  server = await startAppServer({
    databaseUrl: process.env.DATABASE_URL!,
    port,
    logFile: "test-results/sso-server.log",
    env: {
      NEXTAUTH_URL: appUrl,
      NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
      BC_OIDC_ISSUER: provider.issuer,
      BC_OIDC_CLIENT_ID: provider.clientId,
      BC_OIDC_CLIENT_SECRET: provider.clientSecret,
      BC_WORKERS: "off",
      BC_LOG_LEVEL: "warn",
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await provider?.close();
});

/** From the console's sign-in page through the provider's own login and consent pages. */
async function signInThroughProvider(page: Page, login: string) {
  await page.goto(`${server.baseUrl}/signin`);
  await page.getByRole("button", { name: "Sign in with single sign-on" }).click();
  await page.waitForURL(`${provider.issuer}/**`);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

test("claims in the ID token: signed in as the users row, with its pools", async ({ page }) => {
  await signInThroughProvider(page, "alice-idtoken");
  await page.waitForURL(`${server.baseUrl}/`);
  await expect(page.getByTestId("signed-in-as")).toHaveText(users.idToken);
  await expect(page.getByTestId("pool-gpu-a")).toBeVisible();
});

test("claims only from UserInfo (OpenID Connect Core's default): signed in all the same", async ({ page }) => {
  await signInThroughProvider(page, "bob-userinfo");
  await page.waitForURL(`${server.baseUrl}/`);
  await expect(page.getByTestId("signed-in-as")).toHaveText(users.userInfo);
});

test("an unverified email is refused, and the sign-in page says why", async ({ page }) => {
  await signInThroughProvider(page, "carol-unverified");
  await page.waitForURL(/\/signin\?error=OidcEmailNotVerified/);
  await expect(page.getByRole("alert").filter({ hasText: "has not verified your email address" })).toBeVisible();
});

test("a verified email no users row has is refused with a clear message", async ({ page }) => {
  await signInThroughProvider(page, "dave-stranger");
  await page.waitForURL(/\/signin\?error=OidcUnknownUser/);
  await expect(page.getByRole("alert").filter({ hasText: "no console account" })).toBeVisible();
});
