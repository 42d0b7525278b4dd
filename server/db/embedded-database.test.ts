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

  it("approves and rejects there too: a transition and its event are one statement, the key and its pool another", async () => {
    const { serveMethod } = await import("../methods/serve-method");
    const call = (name: string, body: object) =>
      serveMethod(
        new Request(`http://localhost/api/compute/${name}`, {
          method: "POST",
          headers: { authorization: "Bearer bcsk_acmeadmin.demo-acme-admin-secret" },
          body: JSON.stringify({ tenantId: "acme", poolId: "gpu-a", ...body }),
        }),
        name,
      );
    const listed = (await (await call("joinRequests/list", {})).json()) as { joinRequests: { id: string }[] };
    const [toApprove, toReject] = listed.joinRequests.map((request) => request.id);
    const approved = await call("joinRequests/approve", { requestId: toApprove, ttlSeconds: 600, reason: "racked" });
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ id: toApprove, state: "approved", poolId: "gpu-a", reason: "racked" });
    const rejected = await call("joinRequests/reject", { requestId: toReject, reason: "not ours" });
    expect(rejected.status).toBe(200);
    expect(await rejected.json()).toMatchObject({ id: toReject, state: "rejected", reason: "not ours" });
    const { getDb } = await import("./client");
    const events = await (await getDb()).event.findMany({ where: { requestId: { in: [toApprove!, toReject!] } }, orderBy: { id: "asc" } });
    expect(events.map((event) => [event.requestId, event.type])).toEqual(
      expect.arrayContaining([
        [toApprove, "security.join-request.approved"],
        [toReject, "security.join-request.rejected"],
      ]),
    );
    expect(events.find((event) => event.type === "security.join-request.approved")?.data).toMatchObject({
      requestId: toApprove,
      poolId: "gpu-a",
      actor: "bcsk_acmeadmin",
      reason: "racked",
    });
    // a pool of another tenant, read with the key: not found, as before
    const elsewhere = await call("joinRequests/list", { poolId: "no-such-pool" });
    expect(elsewhere.status).toBe(404);
  }, 120_000);

  it("approvals required (SPEC H1) there too: gpu-c's seeded request, approved once, takes one more; approvals at once make one .approved", async () => {
    const { serveMethod } = await import("../methods/serve-method");
    const call = (name: string, bearer: string, body: object) =>
      serveMethod(
        new Request(`http://localhost/api/compute/${name}`, {
          method: "POST",
          headers: { authorization: `Bearer ${bearer}` },
          body: JSON.stringify({ tenantId: "acme", poolId: "gpu-c", ...body }),
        }),
        name,
      );
    const admin = "bcsk_acmeadmin.demo-acme-admin-secret";
    const owner = "bcsk_acmeowner.demo-acme-owner-secret";
    const listed = (await (await call("joinRequests/list", admin, {})).json()) as {
      joinRequests: { id: string; poolId: string | null; approvalsRequired: number; approvals: unknown[] }[];
    };
    const waiting = listed.joinRequests.find((request) => request.poolId === "gpu-c")!;
    expect(waiting).toMatchObject({ approvalsRequired: 2, approvals: [expect.anything()] });
    const answers = await Promise.all([admin, owner].map((bearer) => call("joinRequests/approve", bearer, { requestId: waiting.id })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const { getDb } = await import("./client");
    const types = (await (await getDb()).event.findMany({ where: { requestId: waiting.id } })).map((event) => event.type);
    expect(types.filter((type) => type === "security.join-request.approved")).toHaveLength(1);
    expect(types.filter((type) => type === "security.join-request.approval-recorded")).toHaveLength(1);
  }, 120_000);

  it("stores its data in the configured folder and records the migration", async () => {
    const { getDb } = await import("./client");
    const db = await getDb();
    const rows = await db.$queryRaw<{ migration_name: string }[]>`SELECT migration_name FROM _prisma_migrations`;
    expect(rows.map((row) => row.migration_name)).toContain("20261202000000_init");
    expect(await db.tenant.count()).toBe(2);
  });
});
