import { createHash, createPublicKey } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { runNpmScript } from "@/test/harness/run-npm-script";
import { getDb } from "@/server/db/client";
import { verifyPassword } from "@/server/auth/password";
import { DEMO_JOIN_REQUESTS } from "@/server/seed/demo-join-requests";
import { DEMO_NODES } from "@/server/seed/demo-nodes";
import { seedDemoData } from "@/server/seed/seed-demo-data";
import { callMethod, expectError } from "@/test/api/api-client";
import { createScratchDatabase } from "@/test/api/scratch-database";

// SPEC Part C: the demo data `npm run db:seed` creates. Read-only against the
// shared test database (other files and the console tests rely on it); the
// one refused mutation changes nothing.

const KEYS = {
  acmeAdmin: "bcsk_acmeadmin.demo-acme-admin-secret",
  acmeViewer: "bcsk_acmeviewer.demo-acme-viewer-secret",
  gpuAAdmin: "bcsk_gpuaadmin.demo-gpu-a-admin-secret",
  globexAdmin: "bcsk_globexadmin.demo-globex-admin-secret",
  acmeOwner: "bcsk_acmeowner.demo-acme-owner-secret",
};
const STATES = ["pending", "approved", "rejected", "expired", "consumed"];
const ALLOWED_EK_SHA256 = "15426fb055f5461484bf419f7e67ba400ddfc2b54d90981cb9f65f6ffc228af1";
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

interface JoinRequestJson {
  id: string;
  poolId: string | null;
  siteId: string;
  tenantId: string;
  state: string;
}

const call = (method: string, body: Record<string, unknown>, bearer: string) => callMethod(method, body, { bearer });
const acme = (poolId: string, extra: Record<string, unknown> = {}) => ({ tenantId: "acme", poolId, ...extra });

/** Every request a pool lists in `state`, following nextCursor. */
async function listAll(poolId: string, state = "all", bearer = KEYS.acmeAdmin): Promise<JoinRequestJson[]> {
  const all: JoinRequestJson[] = [];
  let cursor: string | undefined;
  do {
    const response = await call("joinRequests/list", acme(poolId, { state, limit: 200, cursor }), bearer);
    expect(response.status, response.text).toBe(200);
    all.push(...response.body.joinRequests);
    cursor = response.body.nextCursor;
  } while (cursor);
  return all;
}

describe("the demo service keys (Part C) and what they may do (B4)", () => {
  it("bcsk_acmeadmin lists the seeded pending requests of acme/gpu-a", async () => {
    const pending = await listAll("gpu-a", "pending");
    expect(pending.filter((request) => request.poolId === "gpu-a").length).toBeGreaterThan(0);
    for (const request of pending) {
      expect(request).toMatchObject({ tenantId: "acme", siteId: "fra1", state: "pending" });
      expect([null, "gpu-a"]).toContain(request.poolId);
    }
  });

  it("bcsk_acmeviewer may list, but approving is 403 PERMISSION_DENIED", async () => {
    const [request] = await listAll("gpu-a", "pending", KEYS.acmeViewer);
    expect(request).toBeDefined();
    expectError(await call("joinRequests/approve", acme("gpu-a", { requestId: request!.id }), KEYS.acmeViewer), 403, "PERMISSION_DENIED");
    expectError(await call("joinRequests/reject", acme("gpu-a", { requestId: request!.id }), KEYS.acmeViewer), 403, "PERMISSION_DENIED");
  });

  it("bcsk_gpuaadmin may list gpu-a, and gets 403 on gpu-b", async () => {
    expect((await call("joinRequests/list", acme("gpu-a"), KEYS.gpuAAdmin)).status).toBe(200);
    expectError(await call("joinRequests/list", acme("gpu-b"), KEYS.gpuAAdmin), 403, "PERMISSION_DENIED");
    expectError(await call("events/list", acme("gpu-b"), KEYS.gpuAAdmin), 403, "PERMISSION_DENIED");
  });

  it("bcsk_globexadmin lists globex/globex-gpu and gets 403 on acme", async () => {
    const own = await call("joinRequests/list", { tenantId: "globex", poolId: "globex-gpu" }, KEYS.globexAdmin);
    expect(own.status).toBe(200);
    expect(own.body.joinRequests.length).toBeGreaterThan(0);
    expectError(await call("joinRequests/list", acme("gpu-a"), KEYS.globexAdmin), 403, "PERMISSION_DENIED");
  });
});

describe("the demo join requests (Part C: every state across gpu-a, gpu-b and unclaimed in fra1)", () => {
  it("state=all over gpu-a and gpu-b shows every state at least once", async () => {
    const states = new Set([...(await listAll("gpu-a")), ...(await listAll("gpu-b"))].map((request) => request.state));
    for (const state of STATES) expect(states, `state ${state}`).toContain(state);
  });

  it("both gpu-a and gpu-b own requests of their own", async () => {
    expect((await listAll("gpu-a")).some((request) => request.poolId === "gpu-a")).toBe(true);
    expect((await listAll("gpu-b")).some((request) => request.poolId === "gpu-b")).toBe(true);
  });

  it("unclaimed fra1 requests (poolId null) appear in gpu-a's, gpu-b's and legacy's lists, not in ams1's cpu-x", async () => {
    const unclaimed = (await listAll("gpu-a")).filter((request) => request.poolId === null).map((request) => request.id);
    expect(unclaimed.length).toBeGreaterThan(0);
    const ids = async (poolId: string) => (await listAll(poolId)).map((request) => request.id);
    expect(await ids("gpu-b")).toEqual(expect.arrayContaining(unclaimed));
    expect(await ids("legacy")).toEqual(expect.arrayContaining(unclaimed));
    const cpuX = await ids("cpu-x");
    for (const id of unclaimed) expect(cpuX).not.toContain(id);
  });

  it("legacy is archived: listing works, approving an unclaimed fra1 request is INVALID_STATE and changes nothing", async () => {
    const db = await getDb();
    const [request] = (await listAll("legacy", "pending")).filter((r) => r.poolId === null);
    expect(request, "an unclaimed pending fra1 request").toBeDefined();
    const before = await db.joinRequest.findUniqueOrThrow({ where: { id: request!.id } });
    expectError(await call("joinRequests/approve", acme("legacy", { requestId: request!.id }), KEYS.acmeAdmin), 409, "INVALID_STATE");
    expect(await db.joinRequest.findUniqueOrThrow({ where: { id: request!.id } })).toEqual(before);
  });
});

describe("the demo approval rules (SPEC H2)", () => {
  it("gpu-b holds one shadow rule, gpu-c one enforced reject rule, and no Part C pool an enforced one", async () => {
    const listRules = async (poolId: string) =>
      (await call("approvalRules/list", acme(poolId), KEYS.acmeAdmin)).body.rules as { name: string; mode: string; action: object }[];
    expect(await listRules("gpu-b")).toEqual([
      expect.objectContaining({
        name: "approve hostnames gpu-b-*.fra1.acme.test from the fra1 enrollment key",
        mode: "shadow",
        action: { approve: { ttlSeconds: 3600 } },
      }),
    ]);
    expect(await listRules("gpu-c")).toEqual([
      expect.objectContaining({ name: "placeholder serials with no TPM", mode: "enforce", action: { reject: expect.any(Object) } }),
    ]);
    const enforced = await (await getDb()).approvalRule.findMany({ where: { tenantId: "acme", mode: "enforce", updatedBy: "seed" } });
    expect(enforced.map((rule) => rule.poolId)).toEqual(["gpu-c"]);
  });
});

describe("the demo pool requiring two approvals (SPEC H1)", () => {
  it("gpu-c in acme/fra1 requires 2; Part C's pools keep the default of 1", async () => {
    const db = await getDb();
    const pools = await db.pool.findMany({ where: { tenantId: { in: ["acme", "globex"] } }, orderBy: { id: "asc" } });
    expect(Object.fromEntries(pools.map((pool) => [pool.id, pool.approvalsRequired]))).toMatchObject({
      "cpu-x": 1,
      "globex-gpu": 1,
      "gpu-a": 1,
      "gpu-b": 1,
      "gpu-c": 2,
      legacy: 1,
    });
    expect(pools.find((pool) => pool.id === "gpu-c")).toMatchObject({
      tenantId: "acme",
      siteId: "fra1",
      requiresTpm: false,
      archivedAt: null,
    });
  });

  it("one gpu-c request is pending with admin@acme.test's approval, waiting for a second", async () => {
    const db = await getDb();
    const approver = await db.user.findUniqueOrThrow({ where: { email: "admin@acme.test" } });
    const waiting = (await listAll("gpu-c", "pending")).filter((request) => request.poolId === "gpu-c") as (JoinRequestJson & {
      approvalsRequired: number;
      approvals: { by: string }[];
    })[];
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ approvalsRequired: 2, approvals: [expect.objectContaining({ by: approver.id })] });
  });
});

describe("measured boot (SPEC I2)", () => {
  it("gpu-d requires TPM and a known boot, and knows one state; one request is deferred boot-state-unknown with its quoted values", async () => {
    const db = await getDb();
    const pool = await db.pool.findUniqueOrThrow({ where: { id: "gpu-d" } });
    expect(pool).toMatchObject({ tenantId: "acme", siteId: "fra1", requiresTpm: true, requireKnownBoot: true, archivedAt: null });
    const [state] = pool.bootStates as { name: string; pcrs: Record<string, string> }[];
    expect(Object.keys(state!.pcrs)).toEqual(["0", "7"]);
    type Measured = {
      reasons: string[];
      machine: { tpmEkProven: boolean };
      bootMeasurement: { pcrs: Record<string, string>; bootState: string | null };
    };
    const pending = (await listAll("gpu-d", "pending")) as unknown as Measured[];
    const deferred = pending.filter((request) => request.reasons.includes("boot-state-unknown"));
    expect(deferred).toHaveLength(1);
    const measured = deferred[0]!.bootMeasurement;
    expect(measured.bootState).toBeNull();
    expect(measured.pcrs["0"]).toBe(state!.pcrs["0"]);
    expect(measured.pcrs["7"]).not.toBe(state!.pcrs["7"]); // the tampered image
    expect(deferred[0]!.machine.tpmEkProven).toBe(true);
  });
});

describe("the fixed demo values in the database (Part C)", () => {
  it("tenants, sites and pools; gpu-a requires TPM; legacy is archived", async () => {
    const db = await getDb();
    expect((await db.tenant.findMany({ where: { id: { in: ["acme", "globex"] } } })).length).toBe(2);
    const sites = await db.site.findMany({ where: { id: { in: ["fra1", "ams1", "nyc1"] } }, orderBy: { id: "asc" } });
    expect(sites.map(({ id, tenantId }) => [id, tenantId])).toEqual([
      ["ams1", "acme"],
      ["fra1", "acme"],
      ["nyc1", "globex"],
    ]);
    const pools = await db.pool.findMany({
      where: { id: { in: ["gpu-a", "gpu-b", "legacy", "cpu-x", "globex-gpu"] } },
      orderBy: { id: "asc" },
    });
    expect(
      pools.map(({ id, tenantId, siteId, requiresTpm, archivedAt }) => [id, tenantId, siteId, requiresTpm, archivedAt !== null]),
    ).toEqual([
      ["cpu-x", "acme", "ams1", false, false],
      ["globex-gpu", "globex", "nyc1", false, false],
      ["gpu-a", "acme", "fra1", true, false],
      ["gpu-b", "acme", "fra1", false, false],
      ["legacy", "acme", "fra1", false, true],
    ]);
  });

  it("users with password demo-password-123 and their grants", async () => {
    const db = await getDb();
    const expected: Record<string, [string, string | null, string]> = {
      "admin@acme.test": ["acme", null, "pool_admin"],
      "viewer@acme.test": ["acme", null, "pool_viewer"],
      "gpu-a-admin@acme.test": ["acme", "gpu-a", "pool_admin"],
      "admin@globex.test": ["globex", null, "pool_admin"],
      "owner@acme.test": ["acme", null, "tenant_admin"],
    };
    for (const [email, grant] of Object.entries(expected)) {
      const user = await db.user.findUniqueOrThrow({ where: { email }, include: { grants: true } });
      expect(await verifyPassword("demo-password-123", user.passwordHash!), email).toBe(true);
      expect(
        user.grants.map((g) => [g.tenantId, g.poolId, g.role]),
        email,
      ).toEqual([grant]);
    }
  });

  it("service keys store only the SHA-256 of their secrets, with their grants", async () => {
    const db = await getDb();
    const expected: Record<string, [string, string | null, string]> = {
      [KEYS.acmeAdmin]: ["acme", null, "pool_admin"],
      [KEYS.acmeViewer]: ["acme", null, "pool_viewer"],
      [KEYS.gpuAAdmin]: ["acme", "gpu-a", "pool_admin"],
      [KEYS.globexAdmin]: ["globex", null, "pool_admin"],
      [KEYS.acmeOwner]: ["acme", null, "tenant_admin"],
    };
    for (const [bearer, grant] of Object.entries(expected)) {
      const [, id, secret] = /^bcsk_([^.]+)\.(.+)$/.exec(bearer)!;
      const key = await db.serviceKey.findUniqueOrThrow({ where: { id }, include: { grants: true } });
      expect(hex(key.secretHash)).toBe(sha256(secret!));
      expect(key.grants.map((g) => [g.tenantId, g.poolId, g.role])).toEqual([grant]);
    }
  });

  it("join tokens: 1000 uses, 10 years, one per pool, only the secret's SHA-256 stored", async () => {
    const db = await getDb();
    const tokens: [string, string, string][] = [
      ["demogpua", "demo-gpu-a-join-secret", "gpu-a"],
      ["demogpub", "demo-gpu-b-join-secret", "gpu-b"],
      ["demolegacy", "demo-legacy-join-secret", "legacy"],
      ["democpux", "demo-cpu-x-join-secret", "cpu-x"],
      ["demoglobex", "demo-globex-join-secret", "globex-gpu"],
      ["demogpuc", "demo-gpu-c-join-secret", "gpu-c"],
      ["demogpud", "demo-gpu-d-join-secret", "gpu-d"],
    ];
    const nineYears = Date.now() + 9 * 365 * 24 * 3600_000;
    for (const [id, secret, poolId] of tokens) {
      const token = await db.joinToken.findUniqueOrThrow({ where: { id } });
      expect({ poolId: token.poolId, maxUses: token.maxUses, revoked: token.revokedAt !== null }).toEqual({
        poolId,
        maxUses: 1000,
        revoked: false,
      });
      expect(hex(token.secretHash)).toBe(sha256(secret));
      expect(token.expiresAt.getTime()).toBeGreaterThan(nineYears);
    }
  });

  it("site enrollment keys for acme/fra1 and acme/ams1", async () => {
    const db = await getDb();
    for (const [id, secret, siteId] of [
      ["demofra1", "demo-fra1-enroll-secret", "fra1"],
      ["demoams1", "demo-ams1-enroll-secret", "ams1"],
    ]) {
      const key = await db.siteEnrollmentKey.findUniqueOrThrow({ where: { id } });
      expect({ tenantId: key.tenantId, siteId: key.siteId }).toEqual({ tenantId: "acme", siteId });
      expect(hex(key.secretHash)).toBe(sha256(secret!));
    }
  });

  it("discovery inventory: acme/fra1 knows …111 to …119, …118 and …119 assigned to gpu-b; other demo sites know none", async () => {
    const db = await getDb();
    const machines = await db.discoveredMachine.findMany({ where: { siteId: "fra1" }, orderBy: { systemUuid: "asc" } });
    expect(machines.map((m) => [m.systemUuid, m.assignedPoolId])).toEqual(
      Array.from({ length: 9 }, (_, i) => [`11111111-1111-4111-8111-11111111111${i + 1}`, i + 1 >= 8 ? "gpu-b" : null]),
    );
    expect(await db.discoveredMachine.count({ where: { siteId: { in: ["ams1", "nyc1"] } } })).toBe(0);
  });

  it("acme's TPM allow-list carries the hash of the fixture's endorsement key", async () => {
    const db = await getDb();
    const keys = await db.tpmAllowedKey.findMany({ where: { tenantId: "acme" } });
    expect(keys.map((key) => key.ekSha256)).toContain(ALLOWED_EK_SHA256);
    // the repository's copy of the fixture, or the shared one it came from
    const fixture = ["fixtures/tpm-ek-allowed.pem", "../shared/fixtures/tpm-ek-allowed.pem"]
      .map((file) => path.resolve(process.cwd(), file))
      .find((file) => existsSync(file));
    expect(fixture, "the TPM fixture").toBeDefined();
    const der = createPublicKey(readFileSync(fixture!, "utf8")).export({ type: "spki", format: "der" });
    expect(createHash("sha256").update(der).digest("hex")).toBe(ALLOWED_EK_SHA256);
  });
});

describe("the demo nodes (D4), admitted through the real join and reporting", () => {
  const listNodes = async (poolId: string, state = "all") => {
    const response = await call("nodes/list", acme(poolId, { state, limit: 200 }), KEYS.acmeViewer);
    expect(response.status, response.text).toBe(200);
    return (
      response.body.nodes as {
        id: string;
        hostname: string;
        state: string;
        joinRequestId: string | null;
        revokeReason: string | null;
        inventory: unknown;
      }[]
    ).filter((node) => node.hostname.endsWith(".fra1.acme.test"));
  };

  it("gpu-a has at least two active nodes and gpu-b three, one of them revoked; each demo GPU server has reported", async () => {
    const gpuA = await listNodes("gpu-a", "active");
    expect(gpuA.filter((node) => node.hostname.startsWith("gpu-a-")).length).toBeGreaterThanOrEqual(2);
    const gpuB = (await listNodes("gpu-b")).filter((node) => node.hostname.startsWith("gpu-b-"));
    expect(gpuB).toHaveLength(3);
    const revoked = gpuB.filter((node) => node.state === "revoked");
    expect(revoked).toHaveLength(1);
    expect(revoked[0]!.revokeReason).toMatch(/ECC/);
    for (const node of [...gpuA, ...gpuB].filter((candidate) => /^gpu-[ab]-/.test(candidate.hostname)))
      expect(node.inventory, node.hostname).not.toBeNull();
  });

  it("the GPU servers report realistic inventories: 8 GPUs, NVMe disks, two NICs", async () => {
    const [node] = (await listNodes("gpu-b", "active")).filter((candidate) => candidate.hostname === "gpu-b-01.fra1.acme.test");
    const snapshot = await call("inventory/get", { tenantId: "acme", nodeId: node!.id }, KEYS.acmeViewer);
    expect(snapshot.body.sections.gpus).toHaveLength(8);
    expect(snapshot.body.sections.disks.every((disk: { kind: string }) => disk.kind === "nvme")).toBe(true);
    expect(snapshot.body.sections.network).toHaveLength(2);
  });

  it("one node's history has three snapshots: a driver upgrade, then a replaced GPU", async () => {
    const [node] = (await listNodes("gpu-a")).filter((candidate) => candidate.hostname === "gpu-a-02.fra1.acme.test");
    const history = await call("inventory/list", { tenantId: "acme", nodeId: node!.id }, KEYS.acmeViewer);
    const snapshots = history.body.snapshots as {
      changedSections: string[];
      sections: { gpus: { uuid: string; driverVersion: string }[] };
    }[];
    expect(snapshots.map((snapshot) => snapshot.changedSections)).toEqual([
      ["gpus"],
      ["gpus", "software"],
      expect.arrayContaining(["gpus", "os", "system"]),
    ]);
    const [replaced, upgraded, first] = snapshots;
    expect(new Set(first!.sections.gpus.map((gpu) => gpu.driverVersion))).not.toEqual(
      new Set(upgraded!.sections.gpus.map((gpu) => gpu.driverVersion)),
    );
    expect(replaced!.sections.gpus.at(-1)!.uuid).not.toBe(upgraded!.sections.gpus.at(-1)!.uuid);
  });

  it("the consumed demo request's retry made a node that names it", async () => {
    const consumed = (await listAll("gpu-a", "consumed")).filter((request) => request.poolId === "gpu-a");
    const nodes = await listNodes("gpu-a");
    for (const request of consumed) expect(nodes.map((node) => node.joinRequestId)).toContain(request.id);
  });
});

describe("npm run db:seed is idempotent (Part C)", () => {
  it("re-running it against the test database creates no demo row twice", async () => {
    const databaseUrl = inject("databaseUrl");
    const before = await countDemoRows(databaseUrl);
    // every demo machine has its request (expired ones may have been retried into a second)
    expect(before.joinRequests).toBeGreaterThanOrEqual(DEMO_JOIN_REQUESTS.length);
    await runNpmScript("db:seed", { DATABASE_URL: databaseUrl });
    expect(await countDemoRows(databaseUrl)).toEqual(before);
  }, 120_000);

  it("on an empty database: the second run leaves every table's row count as the first made it", async () => {
    // The migrations and the first seed run in this process (the test above and
    // `npm test`'s own set-up run the real script); the second is `npm run
    // db:seed` in a process of its own, as an operator would run it again, so
    // nothing the first left in memory can stand in for what is stored.
    const { url, db, drop } = await createScratchDatabase();
    try {
      await seedDemoData(db);
      const first = await countAllTables(url);
      expect(first.join_requests).toBeGreaterThan(0);
      await runNpmScript("db:seed", { DATABASE_URL: url });
      expect(await countAllTables(url)).toEqual(first);
    } finally {
      await drop();
    }
  }, 180_000);
});

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const countOf = async (client: pg.Client, sql: string, params: unknown[] = []) =>
  Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, params)).rows[0]!.n);

const DEMO_EMAILS = ["admin@acme.test", "viewer@acme.test", "gpu-a-admin@acme.test", "admin@globex.test", "owner@acme.test"];
// The seed finds its requests again by tenant and the demo machine's hostname.
const DEMO_MACHINES = DEMO_JOIN_REQUESTS.map((request) => `${request.tenantId}/${request.machine.hostname}`);
const DEMO_REQUESTS = "join_requests WHERE tenant_id || '/' || hostname = ANY($1)";

/** Rows the seed makes, identified by their demo ids (other test files add rows of their own meanwhile). */
async function countDemoRows(url: string): Promise<Record<string, number>> {
  return withClient(url, async (client) => ({
    tenants: await countOf(client, "tenants WHERE id = ANY($1)", [["acme", "globex"]]),
    sites: await countOf(client, "sites WHERE id = ANY($1)", [["fra1", "ams1", "nyc1"]]),
    pools: await countOf(client, "pools WHERE id = ANY($1)", [["gpu-a", "gpu-b", "legacy", "cpu-x", "globex-gpu", "gpu-c", "gpu-d"]]),
    users: await countOf(client, "users WHERE email = ANY($1)", [DEMO_EMAILS]),
    serviceKeys: await countOf(client, "service_keys WHERE id = ANY($1)", [["acmeadmin", "acmeviewer", "gpuaadmin", "globexadmin"]]),
    grants: await countOf(
      client,
      `role_grants WHERE service_key_id = ANY($1)
      OR user_id IN (SELECT id FROM users WHERE email = ANY($2))`,
      [["acmeadmin", "acmeviewer", "gpuaadmin", "globexadmin"], DEMO_EMAILS],
    ),
    joinTokens: await countOf(client, "join_tokens WHERE id LIKE 'demo%'"),
    enrollmentKeys: await countOf(client, "site_enrollment_keys WHERE id LIKE 'demo%'"),
    discovered: await countOf(client, "discovered_machines WHERE site_id = ANY($1)", [["fra1", "ams1", "nyc1"]]),
    tpmKeys: await countOf(client, "tpm_allowed_keys WHERE tenant_id = ANY($1)", [["acme", "globex"]]),
    approvalRules: await countOf(client, "approval_rules WHERE pool_id = ANY($1) AND updated_by = 'seed'", [["gpu-b", "gpu-c"]]),
    joinRequests: await countOf(client, DEMO_REQUESTS, [DEMO_MACHINES]),
    events: await countOf(client, `events WHERE request_id IN (SELECT id FROM ${DEMO_REQUESTS})`, [DEMO_MACHINES]),
    nodes: await countOf(client, "nodes WHERE hostname = ANY($1)", [DEMO_NODES.map((node) => node.hostname)]),
    snapshots: await countOf(client, "inventory_snapshots WHERE node_id IN (SELECT id FROM nodes WHERE hostname = ANY($1))", [
      DEMO_NODES.map((node) => node.hostname),
    ]),
  }));
}

async function countAllTables(url: string): Promise<Record<string, number>> {
  return withClient(url, async (client) => {
    const tables = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables.rows) counts[name] = await countOf(client, `"${name}"`);
    return counts;
  });
}
