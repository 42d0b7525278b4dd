import type pg from "pg";
import { hashSecret } from "@/server/auth/credentials";

// The benchmark's world: 4 tenants × 3 sites × 4 pools, one service key, and
// join requests made by generate_series in SQL (a million API calls would
// take longer than the benchmark). Ids are real `jreq_` ULIDs of their
// created_at, so id order is creation order, as in production.

export const BENCH_TENANTS = 4;
export const SITES_PER_TENANT = 3;
export const POOLS_PER_SITE = 4;
export const HOT = { tenantId: "bench-t0", siteId: "bench-t0-s0", poolId: "bench-t0-s0-p0", id: "bench-t0-s0-p0" };
export const APPROVE_POOL = "bench-t0-s0-approve";
export const BENCH_KEY = { id: "benchadmin", secret: "bench-admin-secret" };
export const BENCH_BEARER = `bcsk_${BENCH_KEY.id}.${BENCH_KEY.secret}`;
/** Live pending requests the hot pool always has, so each size lists a full page. */
export const HOT_PENDING = 200;
export const HOT_UNCLAIMED = 50;

const CROCKFORD = `
CREATE OR REPLACE FUNCTION bench_crockford(n bigint, len int) RETURNS text AS $$
DECLARE alphabet text := '0123456789abcdefghjkmnpqrstvwxyz'; out text := '';
BEGIN
  FOR i IN 1..len LOOP out := substr(alphabet, (n % 32)::int + 1, 1) || out; n := n / 32; END LOOP;
  RETURN out;
END $$ LANGUAGE plpgsql IMMUTABLE;
CREATE OR REPLACE FUNCTION bench_jreq_id(at timestamptz) RETURNS text AS $$
  SELECT 'jreq_' || bench_crockford((extract(epoch FROM at) * 1000)::bigint, 10)
    || bench_crockford((random() * 1099511627775)::bigint, 8) || bench_crockford((random() * 1099511627775)::bigint, 8)
$$ LANGUAGE sql VOLATILE;`;

export async function createBenchWorld(client: pg.Client): Promise<void> {
  await client.query(CROCKFORD);
  for (let t = 0; t < BENCH_TENANTS; t++) {
    const tenantId = `bench-t${t}`;
    await client.query(`INSERT INTO tenants (id, name) VALUES ($1, $1)`, [tenantId]);
    for (let s = 0; s < SITES_PER_TENANT; s++) {
      const siteId = `${tenantId}-s${s}`;
      await client.query(`INSERT INTO sites (id, tenant_id, name) VALUES ($1, $2, $1)`, [siteId, tenantId]);
      for (let p = 0; p < POOLS_PER_SITE; p++) {
        await client.query(`INSERT INTO pools (id, tenant_id, site_id, name) VALUES ($1, $2, $3, $1)`, [
          `${siteId}-p${p}`,
          tenantId,
          siteId,
        ]);
      }
    }
  }
  await client.query(`INSERT INTO pools (id, tenant_id, site_id, name) VALUES ($1, $2, $3, $1)`, [APPROVE_POOL, HOT.tenantId, HOT.siteId]);
  await client.query(`INSERT INTO service_keys (id, tenant_id, name, secret_hash) VALUES ($1, $2, 'bench', $3)`, [
    BENCH_KEY.id,
    HOT.tenantId,
    Buffer.from(hashSecret(BENCH_KEY.secret)),
  ]);
  await client.query(
    `INSERT INTO role_grants (id, tenant_id, pool_id, role, service_key_id) VALUES ('grant_bench', $1, NULL, 'pool_admin', $2)`,
    [HOT.tenantId, BENCH_KEY.id],
  );
  // The hot pool's live queue and its site's unclaimed requests.
  await insertRequests(client, HOT_PENDING, {
    poolExpr: `'${HOT.poolId}'`,
    siteExpr: `'${HOT.siteId}'`,
    tenantExpr: `'${HOT.tenantId}'`,
    live: true,
  });
  await insertRequests(client, HOT_UNCLAIMED, {
    poolExpr: "NULL",
    siteExpr: `'${HOT.siteId}'`,
    tenantExpr: `'${HOT.tenantId}'`,
    live: true,
  });
}

/**
 * Adds `count` requests spread over every pool (5% unclaimed) in a realistic
 * mix: created over the last 30 days; 60% consumed, 15% rejected, 10% marked
 * expired, 15% still stored pending or approved (most of those past expiry,
 * so they read as expired; the last day's are live).
 */
export async function addMixedRequests(client: pg.Client, count: number): Promise<void> {
  const batch = 200_000;
  for (let done = 0; done < count; done += batch) {
    const n = Math.min(batch, count - done);
    await client.query(
      `
      INSERT INTO join_requests (id, tenant_id, site_id, pool_id, state, reasons, hostname, system_uuid, serial_number,
        mac_addresses, tpm_ek_sha256, csr_sha256, created_at, expires_at, decided_at, decided_by, reason, consumed_at, join_token_id)
      SELECT bench_jreq_id(created), 'bench-t' || t, 'bench-t' || t || '-s' || s,
        CASE WHEN unclaimed THEN NULL ELSE 'bench-t' || t || '-s' || s || '-p' || p END,
        st::join_request_state, ARRAY['unknown-to-discovery'], 'host-' || g || '.bench', md5(g::text)::uuid::text, 'SN' || g,
        ARRAY['02:00:00:00:00:01'], NULL, encode(sha256(gen_random_uuid()::text::bytea), 'hex'), created,
        CASE WHEN st IN ('pending') THEN created + interval '24 hours' ELSE created + interval '1 hour' END,
        CASE WHEN st IN ('pending', 'expired') THEN NULL ELSE created + interval '5 minutes' END,
        CASE WHEN st IN ('pending', 'expired') THEN NULL ELSE 'bcsk_benchadmin' END,
        NULL,
        CASE WHEN st = 'consumed' THEN created + interval '10 minutes' END,
        'benchtoken'
      FROM (
        SELECT g, now() - random() * interval '30 days' AS created,
          (g % ${BENCH_TENANTS}) AS t, ((g / ${BENCH_TENANTS}) % ${SITES_PER_TENANT}) AS s,
          ((g / ${BENCH_TENANTS * SITES_PER_TENANT}) % ${POOLS_PER_SITE}) AS p,
          random() < 0.05 AS unclaimed, random() AS r
        FROM generate_series($1::bigint, $2::bigint) g
      ) rows, LATERAL (SELECT CASE WHEN r < 0.60 THEN 'consumed' WHEN r < 0.75 THEN 'rejected' WHEN r < 0.85 THEN 'expired'
        WHEN r < 0.95 THEN 'pending' ELSE 'approved' END AS st) states`,
      [done + 1, done + n],
    );
  }
}

/** Live pending requests (for the queue, or as approval targets). */
export async function insertRequests(
  client: pg.Client,
  count: number,
  where: { poolExpr: string; siteExpr: string; tenantExpr: string; live: true },
): Promise<void> {
  await client.query(
    `
    INSERT INTO join_requests (id, tenant_id, site_id, pool_id, state, reasons, hostname, system_uuid, serial_number,
      mac_addresses, csr_sha256, created_at, expires_at, join_token_id)
    SELECT bench_jreq_id(created), ${where.tenantExpr}, ${where.siteExpr}, ${where.poolExpr}, 'pending', ARRAY['unknown-to-discovery'],
      'live-' || g || '.bench', gen_random_uuid()::text, 'SN-live-' || g, ARRAY['02:00:00:00:00:02'],
      encode(sha256(gen_random_uuid()::text::bytea), 'hex'), created, created + interval '24 hours', 'benchtoken'
    FROM (SELECT g, now() - random() * interval '2 hours' AS created FROM generate_series(1, $1::int) g) rows`,
    [count],
  );
}

export async function approvalTargets(client: pg.Client, count: number): Promise<string[]> {
  await client.query(`DELETE FROM join_requests WHERE pool_id = $1 AND state = 'pending'`, [APPROVE_POOL]);
  await insertRequests(client, count, {
    poolExpr: `'${APPROVE_POOL}'`,
    siteExpr: `'${HOT.siteId}'`,
    tenantExpr: `'${HOT.tenantId}'`,
    live: true,
  });
  const { rows } = await client.query<{ id: string }>(`SELECT id FROM join_requests WHERE pool_id = $1 AND state = 'pending' ORDER BY id`, [
    APPROVE_POOL,
  ]);
  return rows.map((row) => row.id);
}

/** A cursor in the middle of the hot pool's history, for deep `all` pages. */
export async function deepCursor(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `SELECT id FROM join_requests WHERE pool_id = $1 ORDER BY id OFFSET (SELECT count(*) / 2 FROM join_requests WHERE pool_id = $1) LIMIT 1`,
    [HOT.poolId],
  );
  return rows[0]!.id;
}

export async function tableSize(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM join_requests`);
  return Number(rows[0]!.n);
}
