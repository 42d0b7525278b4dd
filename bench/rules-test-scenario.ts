import type pg from "pg";
import { BENCH_BEARER, HOT } from "./workload/dataset";
import { httpLoad } from "./http-load";
import type { Figures } from "./figures";
import type { Row } from "./report";

// SPEC H2's dry run at its ceiling: approvalRules/test over a pool holding
// 10,000 requests it must read (live pending, and decided in the last 30
// days), each turned into the rule's variables (a fifth matched in discovery)
// and evaluated, plus older decided ones it must skip. The target: an
// answer within 2 s at 10,000 on this machine, judged only by a full run.

export const RULES_SITE = "bench-t0-rules";
export const RULES_POOL = "bench-t0-rules-p0";
export const RULES_TESTED = 10_000;
/** issue 35: approvalRules/test answers within this at 10,000 requests */
export const RULES_TEST_TARGET_MS = 2_000;

export async function createRulesTestPool(client: pg.Client, tested: number): Promise<void> {
  await client.query(`INSERT INTO sites (id, tenant_id, name) VALUES ($1, $2, $1)`, [RULES_SITE, HOT.tenantId]);
  await client.query(`INSERT INTO pools (id, tenant_id, site_id, name) VALUES ($1, $2, $3, $1)`, [RULES_POOL, HOT.tenantId, RULES_SITE]);
  // g ≤ 30%: live pending; the rest decided by a person within 30 days (consumed, rejected, approved and since expired);
  // then a tenth as many decided before the window, which the test must not read
  await client.query(
    `
    INSERT INTO join_requests (id, tenant_id, site_id, pool_id, state, reasons, hostname, system_uuid, serial_number,
      mac_addresses, csr_sha256, created_at, expires_at, decided_at, decided_by, consumed_at, join_token_id)
    SELECT bench_jreq_id(created), $1, $2, $3, st::join_request_state, ARRAY['unknown-to-discovery'],
      'rack-' || (g / 40) || '-' || (g % 40) || '.rules.bench', 'c0ffee00-0000-4000-8000-' || lpad(g::text, 12, '0'), 'SN-R' || g,
      ARRAY['02:00:00:00:00:03'], encode(sha256(gen_random_uuid()::text::bytea), 'hex'), created,
      CASE WHEN st = 'pending' THEN created + interval '24 hours' ELSE created + interval '1 hour' END,
      CASE WHEN st = 'pending' THEN NULL ELSE created + interval '5 minutes' END,
      CASE WHEN st = 'pending' THEN NULL ELSE 'bcsk_benchadmin' END,
      CASE WHEN st = 'consumed' THEN created + interval '10 minutes' END,
      'benchtoken'
    FROM (
      SELECT g, CASE WHEN g <= $4 * 0.3 THEN now() - random() * interval '20 hours'
                     WHEN g <= $4 THEN now() - interval '1 day' - random() * interval '28 days'
                     ELSE now() - interval '31 days' - random() * interval '60 days' END AS created,
        CASE WHEN g <= $4 * 0.3 THEN 'pending' WHEN g % 3 = 0 THEN 'rejected' WHEN g % 3 = 1 THEN 'consumed' ELSE 'approved' END AS st
      FROM generate_series(1, ($4 * 1.1)::int) g
    ) rows`,
    [HOT.tenantId, RULES_SITE, RULES_POOL, tested],
  );
  await client.query(
    `INSERT INTO discovered_machines (id, tenant_id, site_id, system_uuid, mac_addresses, assigned_pool_id)
     SELECT 'disc_bench_rules_' || g, $1, $2, 'c0ffee00-0000-4000-8000-' || lpad(g::text, 12, '0'), ARRAY['02:00:00:00:00:03'], $3
     FROM generate_series(1, $4::int, 5) g`,
    [HOT.tenantId, RULES_SITE, RULES_POOL, tested],
  );
  await client.query("VACUUM ANALYZE join_requests, discovered_machines");
}

/** The draft an operator would try on a rack: hostname shape, no TPM, known to discovery or not. */
export const rulesTestBody = () =>
  JSON.stringify({
    tenantId: HOT.tenantId,
    poolId: RULES_POOL,
    rule: {
      expression:
        "request.machine.hostname.matches('^rack-[0-9]+-[0-9]+\\\\.rules\\\\.bench$') && !request.tpmProven" +
        " && (discovery == null || discovery.assignedPoolId == request.poolId)",
      action: { approve: { ttlSeconds: 3600 } },
    },
  });

/** One answer checked whole (every request read, once), then `runs` calls one after another. */
export async function measureRulesTest(baseUrl: string, tested: number, runs: number): Promise<Figures> {
  const url = `${baseUrl}/api/compute/approvalRules/test`;
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${BENCH_BEARER}`, "content-type": "application/json" },
    body: rulesTestBody(),
  });
  const answer = (await response.json()) as { summary?: { requests: number; wouldApprove: number; disagree: number } };
  if (response.status !== 200 || answer.summary?.requests !== tested) {
    throw new Error(`approvalRules/test answered ${response.status} ${JSON.stringify(answer).slice(0, 300)}, not ${tested} requests`);
  }
  console.log(`approvalRules/test reads ${tested.toLocaleString("en")} requests: ${JSON.stringify(answer.summary)}`);
  return httpLoad({ url, bearer: BENCH_BEARER, connections: 1, seconds: 600, amount: runs, bodyFor: rulesTestBody });
}

export interface RulesTestResult {
  requests: number;
  runs: number;
  p50Ms: number;
  p99Ms: number;
  targetMs: number;
  /** judged only at full size (a smoke run reads 1,000) */
  held: boolean | null;
}

/** The phase as `npm run bench` runs it: the pool, one checked answer, then the timed runs (a smoke: 1,000 requests, 3 runs). */
export async function rulesTestPhase(client: pg.Client, baseUrl: string, smoke: boolean): Promise<{ row: Row; result: RulesTestResult }> {
  const tested = smoke ? 1_000 : RULES_TESTED;
  const runs = smoke ? 3 : 20;
  await createRulesTestPool(client, tested);
  console.log(
    `\n▶ approvalRules/test: pool ${RULES_POOL} with ${tested.toLocaleString("en")} requests to test (pending + decided in 30 days)`,
  );
  const http = await measureRulesTest(baseUrl, tested, runs);
  const row: Row = { size: tested, rows: tested, scenario: `approvalRules/test (${tested / 1000}k requests)`, connections: 1, http };
  const held = smoke ? null : http.errors === 0 && http.p99Ms <= RULES_TEST_TARGET_MS;
  return { row, result: { requests: tested, runs, p50Ms: http.p50Ms, p99Ms: http.p99Ms, targetMs: RULES_TEST_TARGET_MS, held } };
}

export function printRulesTest(result: RulesTestResult): void {
  const verdict = result.held === null ? "not judged by a smoke run" : result.held ? "✓ held" : "✗ missed";
  console.log(
    `\napprovalRules/test at ${result.requests.toLocaleString("en")} requests (${result.runs} runs): ` +
      `p50 ${result.p50Ms.toFixed(0)} ms, p99 ${result.p99Ms.toFixed(0)} ms (target ≤ ${result.targetMs / 1000} s: ${verdict})`,
  );
}
