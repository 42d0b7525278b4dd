import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardPendingFlood } from "../nodes/pending-flood-guard";
import { sweepUnevaluatedRequests } from "../approval-rules/sweep-unevaluated-requests";
import {
  createExplainedScratchDatabase,
  indexScan,
  scansOn,
  scratchTenant,
  type ExplainedScratchDatabase,
} from "@/test/api/scratch-database";

// Two statements on pending requests run per join or per worker tick, each
// with a partial index made for it: the join's flood guard counts the live
// pending requests (join_requests_live_idx, join_requests_unclaimed_live_idx),
// and the rules sweep looks for the ones whose rules have not run
// (join_requests_rules_unevaluated_idx). Written as Prisma's enum comparison,
// CAST($n::text AS join_request_state), the planner cannot match them to an
// index predicate: the guard read every pending row of the pool, those past
// expiry too, and the sweep every pending row of the database. The code
// itself is called, and the plans PostgreSQL chose for what it sent are read.
// A database of its own, so ANALYZE sees only these rows.
const STALE = 2_000; // pending past expiry, not yet marked (retention behind), per owner
const DECIDED = 2_000; // per owner and state
const LIVE = 20; // per owner
const UNEVALUATED = 5; // of the pool's live ones

let scratch: ExplainedScratchDatabase;
let ids: { tenantId: string; siteId: string; poolId: string };

beforeAll(async () => {
  scratch = await createExplainedScratchDatabase();
  ids = await scratchTenant(scratch.db);
  await insertRequests("stale", "pending", STALE, "now() - interval '1 hour'");
  await insertRequests("rejected", "rejected", DECIDED, "now() - interval '1 hour'");
  await insertRequests("consumed", "consumed", DECIDED, "now() - interval '1 hour'");
  await insertRequests("live", "pending", LIVE, "now() + interval '1 day'");
  await scratch.db.$executeRawUnsafe(
    `UPDATE join_requests SET rules_evaluated_at = NULL WHERE id IN (SELECT id FROM join_requests WHERE id LIKE 'jreq_live_pool_%' ORDER BY id LIMIT $1)`,
    UNEVALUATED,
  );
  await scratch.db.$executeRawUnsafe("ANALYZE join_requests");
}, 120_000);

afterAll(async () => {
  await scratch?.drop();
});

/** `count` requests stored in `state` in the pool and as many unclaimed at its site, created two days ago, their rules run. */
async function insertRequests(prefix: string, state: string, count: number, expiresAt: string): Promise<void> {
  await scratch.db.$executeRawUnsafe(
    `INSERT INTO join_requests (id, tenant_id, site_id, pool_id, state, reasons, hostname, system_uuid, serial_number,
       mac_addresses, csr_sha256, created_at, expires_at, join_token_id, rules_evaluated_at)
     SELECT 'jreq_${prefix}_' || owner || '_' || lpad(g::text, 6, '0'), $1, $2, CASE WHEN owner = 'pool' THEN $3 END,
       $4::join_request_state, ARRAY['unknown-to-discovery'], 'host-' || g, gen_random_uuid()::text, 'SN' || g,
       ARRAY['02:00:00:00:00:01'], encode(sha256(gen_random_uuid()::text::bytea), 'hex'), now() - interval '2 days',
       ${expiresAt}, 'token', now() - interval '2 days'
     FROM generate_series(1, $5::int) g, unnest(ARRAY['pool', 'site']) owner`,
    ids.tenantId,
    ids.siteId,
    ids.poolId,
    state,
    count,
  );
}

describe("the pending requests' statements on PostgreSQL", () => {
  const guard = (poolId: string | null, limit: number) =>
    scratch.plansOf(() =>
      scratch.db
        .$transaction((tx) =>
          guardPendingFlood(tx, {
            tenantId: ids.tenantId,
            siteId: ids.siteId,
            poolId,
            limits: { maxPendingPerPool: limit, maxPendingPerSite: limit },
            now: new Date(),
          }),
        )
        .then(
          () => "admitted",
          (error: Error) => error.message,
        ),
    );

  it("the flood guard counts a pool's live pending requests through join_requests_live_idx", async () => {
    // the count includes the join's own request: LIVE - 1 were waiting before it
    expect((await guard(ids.poolId, LIVE)).result).toBe("admitted");
    const refused = await guard(ids.poolId, LIVE - 1);
    expect(refused.result).toMatch(`already has ${LIVE - 1} pending join requests`);
    expect(scansOn(refused.plans, "join_requests")).toEqual([indexScan("join_requests_live_idx")]);
  });

  it("and a site's unclaimed ones through join_requests_unclaimed_live_idx", async () => {
    expect((await guard(null, LIVE)).result).toBe("admitted");
    const refused = await guard(null, LIVE - 1);
    expect(refused.result).toMatch(`already has ${LIVE - 1} unclaimed pending join requests`);
    expect(scansOn(refused.plans, "join_requests")).toEqual([indexScan("join_requests_unclaimed_live_idx")]);
  });

  it("the rules sweep finds the requests whose rules have not run through join_requests_rules_unevaluated_idx", async () => {
    const swept = await scratch.plansOf(() => sweepUnevaluatedRequests({ db: scratch.db, now: new Date() }));
    expect(swept.result).toMatchObject({ recorded: UNEVALUATED });
    // the sweep's own statement first; then each request's evaluation, by id
    const [sweep, ...evaluations] = scansOn(swept.plans, "join_requests");
    expect(sweep).toEqual(indexScan("join_requests_rules_unevaluated_idx"));
    expect(evaluations.filter((scan) => !scan.endsWith("join_requests_pkey"))).toEqual([]);
  });
});
