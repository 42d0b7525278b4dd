import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

let dirs: string[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  dirs = [];
});

async function load(env: Record<string, string | undefined>) {
  vi.resetModules();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.stubEnv("BC_LOG_LEVEL", "silent");
  return import("./nextauth-secret");
}

describe("nextAuthSecret", () => {
  it("is NEXTAUTH_SECRET when set", async () => {
    const { nextAuthSecret } = await load({ NEXTAUTH_SECRET: "configured-secret" });
    await expect(nextAuthSecret()).resolves.toBe("configured-secret");
  });

  it("is required with DATABASE_URL, with a message that says what to do", async () => {
    const { nextAuthSecret } = await load({ NEXTAUTH_SECRET: undefined, DATABASE_URL: "postgresql://db.example/bc" });
    await expect(nextAuthSecret()).rejects.toThrow(/NEXTAUTH_SECRET must be set when DATABASE_URL is set.*openssl rand -base64 32/);
  });

  it("with the embedded database, is generated once into .data/nextauth-secret (mode 0600) and then reused", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "bc-secret-"));
    dirs.push(dataDir);
    const env = { NEXTAUTH_SECRET: undefined, DATABASE_URL: undefined, BC_PGLITE_DIR: path.join(dataDir, "pglite") };
    const first = await (await load(env)).nextAuthSecret();
    const file = path.join(dataDir, "nextauth-secret");
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await readFile(file, "utf8")).trim()).toBe(first);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const second = await (await load(env)).nextAuthSecret(); // a restart
    expect(second).toBe(first);
  });
});
