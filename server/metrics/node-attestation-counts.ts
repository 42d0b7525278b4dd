import "server-only";
import { Gauge, type Registry } from "prom-client";
import type { Db } from "../db/client";
import { env } from "../env";

// SPEC I3: active nodes by how their attestation reads, per pool, at the
// database's clock (as nodes/list's filter reads it: stale wins in a pool that
// requires a known boot; "none" is a node that never attested where none is
// required). One grouped read over the active nodes
// (nodes_pool_id_attestation_state_id_idx), every pool × state listed so a
// count that empties reads 0.

export const NODE_ATTESTATION_GAUGE_STATES = ["trusted", "untrusted", "stale", "none"] as const;

export interface PoolAttestationCount {
  tenantId: string;
  poolId: string;
  state: (typeof NODE_ATTESTATION_GAUGE_STATES)[number];
  count: number;
}

export function readNodeAttestationCounts(db: Db, maxAgeSeconds = env().BC_ATTESTATION_MAX_AGE_SECONDS) {
  return db.$queryRaw<PoolAttestationCount[]>`
    SELECT p.tenant_id AS "tenantId", p.id AS "poolId", s.state, COALESCE(c.n, 0)::int AS count
    FROM pools p
    CROSS JOIN unnest(${[...NODE_ATTESTATION_GAUGE_STATES]}::text[]) AS s(state)
    LEFT JOIN (
      SELECT n.pool_id,
        CASE
          WHEN pool.require_known_boot AND (n.attested_at IS NULL OR n.attested_at <= now() - make_interval(secs => ${maxAgeSeconds}))
            THEN 'stale'
          ELSE COALESCE(n.attestation_state::text, 'none')
        END AS state,
        count(*) AS n
      FROM nodes n JOIN pools pool ON pool.id = n.pool_id
      WHERE n.state = 'active'
      GROUP BY 1, 2
    ) c ON c.pool_id = p.id AND c.state = s.state`;
}

export function setNodeAttestationGauge(registry: Registry, counts: readonly PoolAttestationCount[]): void {
  const gauge = new Gauge({
    name: "bc_nodes_by_attestation",
    help: "Active nodes of a pool by attestation: trusted, untrusted, stale (a pool that requires a known boot, no quote within the maximum age), none (never attested).",
    labelNames: ["tenant", "pool", "state"] as const,
    registers: [registry],
  });
  for (const row of counts) gauge.set({ tenant: row.tenantId, pool: row.poolId, state: row.state }, row.count);
}
