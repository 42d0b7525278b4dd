import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

// The real command, as operators run it: exit codes, stdout/stderr and the
// password read from standard input (the in-process tests cover each verb).
const run = (args: string[], input = "", script = "admin") =>
  spawnSync("npm", ["run", "-s", script, "--", ...args], { input, encoding: "utf8", env: { ...process.env, BC_LOG_LEVEL: "warn" } });

describe("npm run admin (the process)", () => {
  it("exits 2 with the usage on a usage error, 1 with one line on a failure, 0 on success", () => {
    const usage = run(["tenants", "create"]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^--id is required\n/);
    const failure = run(["tenants", "create", "--id", "bad id"]);
    expect(failure.status).toBe(1);
    expect(failure.stderr.trim().split("\n")).toEqual(["admin failed: id: must match ^[A-Za-z0-9._:-]{1,128}$"]);
    const email = `proc-${Date.now()}@example.test`;
    const created = run(["users", "create", "--email", email, "--password-stdin"], "a password of some length\n");
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout.trim()).toBe(`created: user ${email} (password)`);
  }, 60_000);

  it("npm run enrollment-keys is this command with the noun given (npm run webhooks too: e2e/api/webhooks.test.ts)", () => {
    const usage = run(["list"], "", "enrollment-keys");
    expect(usage.status, usage.stderr).toBe(2);
    expect(usage.stderr).toMatch(/^--tenant is required\n[^]*npm run admin -- enrollment-keys list --tenant/);
  }, 60_000);
});
