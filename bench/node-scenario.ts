import { generateKeyPairSync } from "node:crypto";
import type pg from "pg";
import { ulid } from "ulid";
import { newId } from "@/lib/ids";
import { sectionsSha256 } from "@/lib/inventory/sections-digest";
import { gpuServerInventory } from "@/lib/inventory/gpu-server-inventory";
import { signNodeToken } from "@/lib/node-credential/sign-node-token";
import { HOT } from "./workload/dataset";

// The node phase at fleet size (SPEC D1–D3): `count` nodes in a pool of
// their own, each with a certificate row and a history of `history`
// snapshots (older ones of other content, the latest the inventory the
// reports repeat), made in SQL (admitting 100,000 machines through the API
// would dominate the run). They share one key pair, so the bench signs one
// JWT per node instead of making 100,000 keys; the server still loads and
// verifies each node's own rows.

/** The fleet sizes the node phase runs at (issue #38: 100,000 within 1.3× of 10,000), and each node's snapshots. */
export const NODE_COUNTS = [10_000, 100_000];
export const NODE_HISTORY = 10;

export interface BenchNodes {
  poolId: string;
  ids: string[];
  /** Authorization header values, one per node (valid for NODE_TOKEN_LIFETIME_SECONDS from creation) */
  tokens: string[];
  inventory: Record<string, unknown>;
  privateKeyPem: string;
}

export async function createBenchNodes(client: pg.Client, count = NODE_COUNTS[0]!, history = 1): Promise<BenchNodes> {
  const poolId = `bench-t0-s0-nodes-${count}`;
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const spki = publicKey.export({ type: "spki", format: "der" });
  const privateKeyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const inventory = gpuServerInventory({
    hostname: "bench.nodes.test",
    systemUuid: "b1000000-0000-4000-8000-000000000000",
    serialNumber: "SN-BENCH",
  });
  await client.query(`INSERT INTO pools (id, tenant_id, site_id, name) VALUES ($1, $2, $3, $1)`, [poolId, HOT.tenantId, HOT.siteId]);
  const ids = Array.from({ length: count }, () => newId("node"));
  await client.query(
    `INSERT INTO nodes (id, tenant_id, site_id, pool_id, hostname, system_uuid, serial_number, csr_sha256, cert_serial, cert_not_before, cert_not_after, last_seen_at)
     SELECT id, $2, $3, $4, 'bench-' || ord || '.nodes.test', 'uuid-' || ord, 'SN-' || ord, md5(id) || md5(id), md5(id), now(), now() + interval '30 days', now()
     FROM unnest($1::text[]) WITH ORDINALITY AS t(id, ord)`,
    [ids, HOT.tenantId, HOT.siteId, poolId],
  );
  await client.query(
    `INSERT INTO node_certificates (node_id, serial, not_before, not_after, sha256, public_key)
     SELECT id, md5(id), now(), now() + interval '30 days', md5(id) || md5(id), $2 FROM unnest($1::text[]) AS t(id)`,
    [ids, spki],
  );
  await insertHistory(client, ids, inventory, history);
  await client.query("VACUUM ANALYZE nodes, node_certificates, inventory_snapshots");
  return { poolId, ids, tokens: await tokensFor(ids, privateKeyPem), inventory, privateKeyPem };
}

/**
 * Each node's `history` snapshots, an hour apart, oldest first: the older
 * ones differ by a section of their own, the latest is `inventory`. Ids are
 * made for their times (not newId's monotonic clock, which would stamp them
 * all now), so the latest sorts last as the app's would.
 */
async function insertHistory(client: pg.Client, nodeIds: string[], inventory: Record<string, unknown>, history: number): Promise<void> {
  const now = Date.now();
  for (let age = history - 1; age >= 0; age--) {
    const takenAt = now - age * 3_600_000;
    const sections = age === 0 ? inventory : { ...inventory, "bench-history": { age } };
    const digest = sectionsSha256(sections);
    // in batches, so a 100,000-node fleet's parameters stay a few MB
    for (let from = 0; from < nodeIds.length; from += 20_000) {
      const batch = nodeIds.slice(from, from + 20_000);
      await client.query(
        `INSERT INTO inventory_snapshots (id, node_id, taken_at, last_reported_at, sections_sha256, changed_sections, sections)
         SELECT s, n, $3, $3, $4, $5, $6 FROM unnest($1::text[], $2::text[]) AS t(n, s)`,
        [
          batch,
          batch.map(() => `inv_${ulid(takenAt).toLowerCase()}`),
          new Date(takenAt),
          digest,
          Object.keys(sections).sort(),
          JSON.stringify(sections),
        ],
      );
    }
  }
}

/**
 * Every node of the fleet due for its once-a-minute writes (lastSeenAt, and
 * its latest snapshot's lastReportedAt), as when a daemon reports every five
 * minutes: run before each side measures, so the app and the floors meet the
 * same state rather than the nodes the side before them just refreshed.
 */
export async function makeFleetDue(client: pg.Client, nodes: Pick<BenchNodes, "poolId">): Promise<void> {
  await client.query(`UPDATE nodes SET last_seen_at = now() - interval '5 minutes' WHERE pool_id = $1`, [nodes.poolId]);
  // only the snapshots a report touched since (the older ones are hours old)
  await client.query(
    `UPDATE inventory_snapshots s SET last_reported_at = now() - interval '5 minutes'
     FROM nodes n WHERE n.pool_id = $1 AND s.node_id = n.id AND s.last_reported_at > now() - interval '5 minutes'`,
    [nodes.poolId],
  );
}

/** Fresh JWTs for inventory/report, one per node (sign before the clock starts). */
export async function tokensFor(ids: string[], privateKeyPem: string): Promise<string[]> {
  return Promise.all(ids.map((nodeId) => signNodeToken({ privateKeyPem, nodeId, method: "inventory/report", lifetimeSeconds: 300 })));
}

/** inventory/report's body: unchanged (the snapshot every node has), or changed by `seq` in a section of its own. */
export function reportBody(nodes: BenchNodes, changedSeq?: number): string {
  const sections = changedSeq === undefined ? nodes.inventory : { ...nodes.inventory, "bench-counter": { seq: changedSeq } };
  return JSON.stringify({ sections });
}

export const listNodesBody = (nodes: Pick<BenchNodes, "poolId">, cursor?: string) =>
  JSON.stringify({ tenantId: HOT.tenantId, poolId: nodes.poolId, limit: 100, ...(cursor ? { cursor } : {}) });
