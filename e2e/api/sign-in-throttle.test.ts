import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../../scripts/test/start-app-server";
import { getDb } from "@/server/db/client";
import { hashPassword } from "@/server/auth/password";
import { newId } from "@/lib/ids";

// Issue 14 item 5: failed sign-ins slowed, then refused with a retry time;
// counted in PostgreSQL, so two app instances share one count; a success
// resets the account's count; attempts logged without the password.
// Two servers of their own with low limits (the shared one keeps the defaults).
const LIMITS = {
  BC_SIGNIN_MAX_FAILURES_PER_ACCOUNT: "3",
  BC_SIGNIN_MAX_FAILURES_PER_ADDRESS: "8",
  BC_SIGNIN_WINDOW_SECONDS: "120",
  BC_TRUSTED_PROXY_HOPS: "1",
};
const PASSWORD = "correct horse battery staple";
let servers: AppServer[];

beforeAll(async () => {
  const env = { ...LIMITS, BC_LOG_LEVEL: "info" };
  servers = await Promise.all(
    ["a", "b"].map((name) =>
      startAppServer({ databaseUrl: process.env.DATABASE_URL!, logFile: `test-results/sign-in-throttle-${name}.log`, env }),
    ),
  );
  // A fresh server's first sign-in also loads its routes and hashing; warm both up (an unknown
  // account, from an address no test uses) so the tests time the throttle's delays, not that.
  for (const server of servers) await signIn(server, "warm-up@example.test", "wrong", "192.0.2.250");
}, 120_000);
afterAll(async () => {
  await Promise.all(servers?.map((server) => server.stop()) ?? []);
});

async function newUser(): Promise<string> {
  const email = `throttle-${randomBytes(4).toString("hex")}@example.test`;
  await (await getDb()).user.create({ data: { id: newId("usr"), email, name: email, passwordHash: await hashPassword(PASSWORD) } });
  return email;
}

/** next-auth's credentials sign-in as the console's form makes it; the error code it redirects with, or null when signed in. */
async function signIn(server: AppServer, email: string, password: string, address = "198.51.100.1") {
  const csrf = await fetch(`${server.baseUrl}/api/auth/csrf`);
  const cookie = csrf.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const started = Date.now();
  const response = await fetch(`${server.baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: server.baseUrl, "x-forwarded-for": address },
    body: new URLSearchParams({ csrfToken, email, password, json: "true", callbackUrl: `${server.baseUrl}/` }),
    redirect: "manual",
  });
  const { url } = (await response.json()) as { url: string };
  const signedIn = response.headers.getSetCookie().some((value) => value.startsWith("next-auth.session-token="));
  return { error: new URL(url).searchParams.get("error"), signedIn, ms: Date.now() - started };
}

describe("sign-in throttling", () => {
  it("failures are slowed, then refused with a retry time even for the right password; counted across two instances", async () => {
    const email = await newUser();
    const [a, b] = servers as [AppServer, AppServer];
    const failures = [await signIn(a, email, "wrong 1"), await signIn(b, email, "wrong 2"), await signIn(a, email, "wrong 3")];
    expect(failures.map((attempt) => attempt.error)).toEqual(["CredentialsSignin", "CredentialsSignin", "CredentialsSignin"]);
    // 250 ms, 500 ms, 1 s: each failure answers later than the one before
    expect(failures[2]!.ms).toBeGreaterThanOrEqual(900);
    expect(failures[2]!.ms).toBeGreaterThan(failures[0]!.ms);

    const refused = await signIn(b, email, PASSWORD); // the other instance, the right password
    expect(refused.signedIn).toBe(false);
    expect(refused.error).toMatch(/^SignInThrottled:\d+$/);
    const seconds = Number(refused.error!.split(":")[1]);
    expect(seconds).toBeGreaterThan(60);
    expect(seconds).toBeLessThanOrEqual(120);
  });

  it("a success resets the account's count", async () => {
    const email = await newUser();
    const [a] = servers as [AppServer];
    for (let round = 0; round < 3; round++) {
      expect((await signIn(a, email, "wrong", "198.51.100.2")).error).toBe("CredentialsSignin");
      expect((await signIn(a, email, "wrong", "198.51.100.2")).error).toBe("CredentialsSignin");
      expect((await signIn(a, email, PASSWORD, "198.51.100.2")).signedIn).toBe(true); // 2 < 3: never refused
    }
  });

  it("one address spraying many accounts is refused once it spent its failures; another address is not", async () => {
    const [a] = servers as [AppServer];
    const sprayer = "203.0.113.66";
    for (let i = 0; i < 8; i++)
      expect((await signIn(a, `nobody-${i}-${randomBytes(3).toString("hex")}@example.test`, "guess", sprayer)).error).toBe(
        "CredentialsSignin",
      );
    const email = await newUser();
    expect((await signIn(a, email, PASSWORD, sprayer)).error).toMatch(/^SignInThrottled:/);
    expect((await signIn(a, email, PASSWORD, "203.0.113.67")).signedIn).toBe(true);
  });

  it("the sign-in page says what happened and when to try again", async () => {
    const html = await (await fetch(`${servers[0]!.baseUrl}/signin?error=SignInThrottled:600`)).text();
    expect(html).toContain("Too many failed sign-ins for this account or from this address. Try again in 10 minutes.");
  });

  it("every attempt is logged with its outcome, never the password", async () => {
    const logs = (await Promise.all(servers.map((server) => readFile(server.logFile, "utf8")))).join("\n");
    expect(logs).toMatch(/"msg":"sign-in","email":"throttle-[0-9a-f]+@example\.test","address":"198\.51\.100\.1","outcome":"failure"/);
    expect(logs).toMatch(/"msg":"sign-in refused: too many failures"/);
    expect(logs).not.toContain("wrong 1");
    expect(logs).not.toContain(PASSWORD);
  });
});
