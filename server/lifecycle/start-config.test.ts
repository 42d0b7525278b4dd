import { describe, expect, it } from "vitest";
import { checkStartConfig } from "./start-config";

// Issue 14 item 3: with DATABASE_URL a missing or malformed secret stops the
// start, naming the variable and how to make one; the embedded database needs none.
const POSTGRES = "postgresql://bc@db.internal/bc";
const SECRET = "x".repeat(44); // what `openssl rand -base64 32` prints
const CA_KEY = Buffer.alloc(32, 7).toString("base64");
const good = { DATABASE_URL: POSTGRES, NEXTAUTH_SECRET: SECRET, BC_CA_KEY_ENCRYPTION_KEY: CA_KEY, NEXTAUTH_URL: "https://console.example" };

describe("checkStartConfig", () => {
  it("the embedded database (no DATABASE_URL) starts with nothing set", () => {
    expect(checkStartConfig({})).toEqual({ warnings: [] });
  });

  it("PostgreSQL with both secrets and an https NEXTAUTH_URL starts with no warning", () => {
    expect(checkStartConfig(good)).toEqual({ warnings: [] });
  });

  it.each([
    ["NEXTAUTH_SECRET missing", { NEXTAUTH_SECRET: undefined }, /^NEXTAUTH_SECRET must be set .*openssl rand -base64 32/],
    [
      "NEXTAUTH_SECRET too short",
      { NEXTAUTH_SECRET: "hunter2" },
      /^NEXTAUTH_SECRET is 7 characters: use at least 32 .*openssl rand -base64 32/,
    ],
    [
      "BC_CA_KEY_ENCRYPTION_KEY missing",
      { BC_CA_KEY_ENCRYPTION_KEY: undefined },
      /^BC_CA_KEY_ENCRYPTION_KEY must be set .*openssl rand -base64 32/,
    ],
    [
      "BC_CA_KEY_ENCRYPTION_KEY not 32 bytes",
      { BC_CA_KEY_ENCRYPTION_KEY: "c2hvcnQ=" },
      /^BC_CA_KEY_ENCRYPTION_KEY must be 32 bytes .*openssl rand -base64 32/,
    ],
    ["a malformed DATABASE_URL", { DATABASE_URL: "mysql://x" }, /^DATABASE_URL: must be a postgresql:\/\/ URL$/],
    ["a bad number elsewhere", { BC_DB_POOL_MAX: "many" }, /^BC_DB_POOL_MAX: /],
    [
      "a lease shorter than the webhook timeout",
      { BC_WEBHOOK_LEASE_MS: "1000", BC_WEBHOOK_TIMEOUT_MS: "5000" },
      /^BC_WEBHOOK_LEASE_MS: must be longer than BC_WEBHOOK_TIMEOUT_MS$/,
    ],
  ])("%s → one line naming it", (_, change, message) => {
    const { problem } = checkStartConfig({ ...good, ...change });
    expect(problem).toMatch(message);
    expect(problem).not.toContain("\n");
  });

  it("a secret's value never appears in the message", () => {
    expect(checkStartConfig({ ...good, NEXTAUTH_SECRET: "s3cr3t-value" }).problem).not.toContain("s3cr3t-value");
    expect(checkStartConfig({ ...good, BC_CA_KEY_ENCRYPTION_KEY: "s3cr3t-value" }).problem).not.toContain("s3cr3t-value");
  });

  it.each([
    ["http", "http://console.example"],
    ["unset", undefined],
  ])("NEXTAUTH_URL %s with PostgreSQL: starts, but says plainly that cookies are not Secure", (_, url) => {
    const { problem, warnings } = checkStartConfig({ ...good, NEXTAUTH_URL: url });
    expect(problem).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/session cookies are not marked Secure/);
  });
});
