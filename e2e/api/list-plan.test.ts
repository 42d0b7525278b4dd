import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@/server/db/generated/client";
import { listJoinRequestsSql } from "@/server/join-requests/list-join-requests";
import { createScratchDatabase, scratchTenant, type ScratchDatabase } from "@/test/api/scratch-database";

// The live filters (`pending`, `approved`) must not read the stored-live rows
// already past expiry that retention has not marked yet: with the workers off
// or behind there can be any number of them, and the queue page would slow
// with the table (the benchmark measured 12 ms at 1M rows before these
// indexes, 1.3 ms after). A database of its own, so ANALYZE sees only this.
const STALE = 3000;
const LIVE = 20;

let scratch: ScratchDatabase;
let pool: { id: string; siteId: string; tenantId: string };

beforeAll(async () => {
  scratch = await createScratchDatabase();
  const ids = await scratchTenant(scratch.db);
  pool = { id: ids.poolId, siteId: ids.siteId, tenantId: ids.tenantId };
  // Stale first, so their ids come first in the id order the page walks.
  await insertRequests("stale", STALE, "now() - interval '1 hour'");
  await insertRequests("live", LIVE, "now() + interval '1 day'");
  await scratch.db.$executeRawUnsafe("ANALYZE join_requests");
}, 120_000);

afterAll(async () => {
  await scratch?.drop();
});

/** `count` pending requests in the pool and as many unclaimed at its site, and as many rejected and consumed. */
async function insertRequests(prefix: string, count: number, expiresAt: string): Promise<void> {
  await scratch.db.$executeRawUnsafe(
    `INSERT INTO join_requests (id, tenant_id, site_id, pool_id, state, reasons, hostname, system_uuid, serial_number,
       mac_addresses, csr_sha256, created_at, expires_at, join_token_id)
     SELECT 'jreq_${prefix}_' || owner || '_' || state || '_' || lpad(g::text, 6, '0'), $1, $2,
       CASE WHEN owner = 'pool' THEN $3 END, state::join_request_state, ARRAY['unknown-to-discovery'],
       'host-' || g, gen_random_uuid()::text, 'SN' || g, ARRAY['02:00:00:00:00:01'],
       encode(sha256(gen_random_uuid()::text::bytea), 'hex'), now() - interval '2 days', ${expiresAt}, 'token'
     FROM generate_series(1, $4::int) g, unnest(ARRAY['pool', 'site']) owner,
       unnest(ARRAY['pending', 'rejected', 'consumed']) state`,
    pool.tenantId,
    pool.siteId,
    pool.id,
    count,
  );
}

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Actual Rows": number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

function* walk(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* walk(child);
}

async function explainPendingPage(): Promise<PlanNode[]> {
  const sql = listJoinRequestsSql({ pool, state: "pending", pageSize: 101, now: new Date() });
  const rows = await scratch.db.$queryRaw<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(Prisma.sql`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`);
  return [...walk(rows[0]!["QUERY PLAN"][0].Plan)];
}

describe("the pending page's plan on PostgreSQL", () => {
  it("reads the live rows through the live indexes, none of the rows past expiry", async () => {
    const nodes = await explainPendingPage();
    const indexes = nodes.flatMap((node) => (node["Index Name"] ? [node["Index Name"]] : []));
    expect(indexes).toEqual(expect.arrayContaining(["join_requests_live_idx", "join_requests_unclaimed_live_idx"]));
    const scans = nodes.filter((node) => node["Node Type"].includes("Scan"));
    for (const scan of scans) {
      expect(scan["Actual Rows"], JSON.stringify(scan)).toBeLessThanOrEqual(LIVE);
      expect(scan["Rows Removed by Filter"] ?? 0, JSON.stringify(scan)).toBe(0);
      expect(scan["Rows Removed by Index Recheck"] ?? 0, JSON.stringify(scan)).toBe(0);
    }
    expect(nodes[0]!["Actual Rows"]).toBe(2 * LIVE);
  });
});
