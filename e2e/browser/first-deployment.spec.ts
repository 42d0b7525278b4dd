import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { startAppServer, type AppServer } from "@/test/harness/start-app-server";
import { deploymentBlock, runBlock } from "@/test/browser/deployment-blocks";

// SPEC E1 and docs/deployment.md ("A first deployment"), run as
// written: an empty PostgreSQL database → the page's setup commands → the
// server → the admin signs in in the browser and approves the request the
// simulator's machine made → the service key lists it → the retry is admitted.

const ADMIN_PASSWORD = `first-deploy-${randomBytes(6).toString("hex")}`;
let databaseUrl: string;
let dropDatabase: () => Promise<void>;
let server: AppServer | undefined;

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

test.beforeAll(async () => {
  const name = `bc_first_${randomBytes(5).toString("hex")}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
  dropDatabase = () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
});

test.afterAll(async () => {
  await server?.stop();
  await dropDatabase?.();
});

test("an operator's first deployment from an empty database, as docs/deployment.md gives it", async ({ page }) => {
  test.setTimeout(240_000);
  const secrets = {
    DATABASE_URL: databaseUrl,
    ADMIN_PASSWORD,
    NEXTAUTH_SECRET: randomBytes(32).toString("base64"),
    BC_CA_KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  };

  const setup = await runBlock(deploymentBlock("setup"), secrets);
  expect(setup).toContain("created: tenant acme");
  expect(setup).toContain("created: tenant-admin for ops@acme.example on every pool of acme");
  const serviceKey = /bcsk_provisioning\.[A-Za-z0-9_-]{43}/.exec(setup)?.[0];
  expect(serviceKey, setup).toBeDefined();
  expect(setup).not.toContain(ADMIN_PASSWORD);

  // `npm run build && npm start`: the suite has built; `npm start` is scripts/serve.mjs
  expect(deploymentBlock("start").trim()).toBe("npm run build && npm start");
  server = await startAppServer({
    databaseUrl,
    processes: 1,
    logFile: "test-results/first-deployment-server.log",
    env: { ...secrets, BC_WORKERS: "off", BC_LOG_LEVEL: "warn" },
  });
  const consoleUrl = server.baseUrl; // the page's $NEXTAUTH_URL
  const env = { ...secrets, NEXTAUTH_URL: consoleUrl, SERVICE_KEY: serviceKey! };

  const joined = await runBlock(`${deploymentBlock("join")}\necho "JOIN_TOKEN=$JOIN_TOKEN"`, env);
  expect(joined).toContain("HTTP 202");
  const requestId = /pending: request (jreq_[0-9a-z]+)/.exec(joined)?.[1];
  const hostname = /(sim-unknown-\S+\.gpu-a\.test) joins pool gpu-a/.exec(joined)?.[1];
  const joinToken = /JOIN_TOKEN=(bcjt_\S+)/.exec(joined)?.[1];
  expect([requestId, hostname, joinToken].every(Boolean), joined).toBe(true);

  await page.goto(`${consoleUrl}/signin`);
  await page.getByLabel("Email").fill("ops@acme.example");
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(`${consoleUrl}/`);
  await expect(page.getByTestId("signed-in-as")).toHaveText("ops@acme.example");
  await page.goto(`${consoleUrl}/pools/gpu-a`);
  const row = page.getByTestId("request-row").filter({ hasText: hostname! });
  await row.getByRole("button", { name: `Approve ${hostname}` }).click();
  const dialog = page.getByRole("dialog", { name: `Approve ${hostname}` });
  await dialog.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Approved ${hostname}`)).toBeVisible();

  const admitted = await runBlock(deploymentBlock("admitted"), { ...env, JOIN_TOKEN: joinToken! });
  const listed = JSON.parse(admitted.slice(admitted.indexOf("{"), admitted.indexOf("\n", admitted.indexOf("{")))) as {
    joinRequests: { id: string; state: string; decidedBy: string }[];
  };
  expect(listed.joinRequests).toEqual([
    expect.objectContaining({ id: requestId, state: "approved", decidedBy: expect.stringMatching(/^usr_/) }),
  ]);
  expect(admitted).toContain("HTTP 200");
  expect(admitted).toMatch(/admitted: node node_[0-9a-z]{26}/);
});
