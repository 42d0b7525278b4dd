import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The embedded default: no DATABASE_URL, a fresh PGlite folder → migrated →
// (the app's start) seeded → `list` answers for the demo service key, through the same wrapper
// the route handlers use.
const dir = await mkdtemp(path.join(tmpdir(), "bc-pglite-"));
delete process.env.DATABASE_URL;
process.env.BC_PGLITE_DIR = dir;

afterAll(async () => {
  const { getDb } = await import("./client");
  await (await getDb()).$disconnect();
  await rm(dir, { recursive: true, force: true });
});

describe("embedded PGlite default", () => {
  it("opening a fresh folder migrates it and seeds nothing (the admin CLI starts from an empty one)", async () => {
    const { getDb } = await import("./client");
    const db = await getDb();
    expect(await db.tenant.count()).toBe(0);
  }, 120_000);

  it("the app's start seeds the empty embedded database, then serves list for the demo key", async () => {
    const { seedEmbeddedDemoIfEmpty } = await import("../seed/seed-embedded-demo");
    await seedEmbeddedDemoIfEmpty(); // what instrumentation.ts and `npm run dev`'s setup do
    const { serveMethod } = await import("../methods/serve-method");
    const response = await serveMethod(
      new Request("http://localhost/api/compute/joinRequests/list", {
        method: "POST",
        headers: { authorization: "Bearer bcsk_acmeadmin.demo-acme-admin-secret" },
        body: JSON.stringify({ tenantId: "acme", poolId: "gpu-a" }),
      }),
      "joinRequests/list",
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { joinRequests: { state: string; poolId: string | null }[] };
    expect(body.joinRequests.length).toBeGreaterThan(0);
    expect(body.joinRequests.every((request) => request.state === "pending")).toBe(true);
    // the site's unclaimed requests are there too
    expect(body.joinRequests.some((request) => request.poolId === null)).toBe(true);
  }, 120_000);

  it("stores its data in the configured folder and records the migration", async () => {
    const { getDb } = await import("./client");
    const db = await getDb();
    const rows = await db.$queryRaw<{ migration_name: string }[]>`SELECT migration_name FROM _prisma_migrations`;
    expect(rows.map((row) => row.migration_name)).toContain("20261202000000_init");
    expect(await db.tenant.count()).toBe(2);
  });
});
