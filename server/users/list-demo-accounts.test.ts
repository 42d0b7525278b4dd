import { describe, expect, it, vi } from "vitest";
import { DEMO_USERS } from "../seed/demo-data";

const verifyPassword = vi.hoisted(() => vi.fn<(password: string, hash: string) => Promise<boolean>>());
vi.mock("../auth/password", async (original) => {
  const real = await original<typeof import("../auth/password")>();
  verifyPassword.mockImplementation(real.verifyPassword);
  return { ...real, verifyPassword };
});

const { demoMode, listDemoAccounts } = await import("./list-demo-accounts");

describe("demo accounts on the sign-in page", () => {
  it.each([
    [{ DATABASE_URL: undefined, BC_DEMO_MODE: undefined }, true],
    [{ DATABASE_URL: "postgresql://db/x", BC_DEMO_MODE: undefined }, false],
    [{ DATABASE_URL: "postgresql://db/x", BC_DEMO_MODE: "1" as const }, true],
    [{ DATABASE_URL: undefined, BC_DEMO_MODE: "0" as const }, false],
  ])("demo mode for %j is %s", (settings, expected) => expect(demoMode(settings)).toBe(expected));

  it("in demo mode the seeded accounts are listed, their passwords checked once per process, not per page load", async () => {
    process.env.BC_DEMO_MODE = "1"; // before the env is first parsed in this file's process
    const first = await listDemoAccounts();
    expect(first.map((account) => account.email)).toEqual(DEMO_USERS.map((user) => user.email));
    expect(verifyPassword).toHaveBeenCalledTimes(DEMO_USERS.length);
    for (let load = 0; load < 5; load++) expect(await listDemoAccounts()).toEqual(first);
    expect(verifyPassword).toHaveBeenCalledTimes(DEMO_USERS.length);
  });
});
