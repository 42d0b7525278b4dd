import { generateKeyPairSync } from "node:crypto";
import type pg from "pg";
import { newId } from "@/lib/ids";
import { sectionsSha256 } from "@/lib/inventory/sections-digest";
import { gpuServerInventory } from "@/lib/inventory/gpu-server-inventory";
import { signNodeToken } from "@/lib/node-credential/sign-node-token";
import { HOT } from "./workload/dataset";

// The node phase at fleet size (SPEC D1–D3): NODE_COUNT nodes in one pool,
// each with a certificate row and a first snapshot, made in SQL (admitting
// 10,000 machines through the API would dominate the run). They share one
// key pair, so the bench signs one JWT per node instead of making 10,000
// keys; the server still loads and verifies each node's own rows.

export const NODE_POOL = "bench-t0-s0-nodes";
export const NODE_COUNT = 10_000;

export interface BenchNodes {
  ids: string[];
  /** Authorization header values, one per node (valid for NODE_TOKEN_LIFETIME_SECONDS from creation) */
  tokens: string[];
  inventory: Record<string, unknown>;
  privateKeyPem: string;
}

export async function createBenchNodes(client: pg.Client, count = NODE_COUNT): Promise<BenchNodes> {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const spki = publicKey.export({ type: "spki", format: "der" });
  const privateKeyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const inventory = gpuServerInventory({
    hostname: "bench.nodes.test",
    systemUuid: "b1000000-0000-4000-8000-000000000000",
    serialNumber: "SN-BENCH",
  });
  await client.query(`INSERT INTO pools (id, tenant_id, site_id, name) VALUES ($1, $2, $3, $1)`, [NODE_POOL, HOT.tenantId, HOT.siteId]);
  const ids = Array.from({ length: count }, () => newId("node"));
  const snapshotIds = ids.map(() => newId("inv"));
  await client.query(
    `INSERT INTO nodes (id, tenant_id, site_id, pool_id, hostname, system_uuid, serial_number, csr_sha256, cert_serial, cert_not_before, cert_not_after, last_seen_at)
     SELECT id, $2, $3, $4, 'bench-' || ord || '.nodes.test', 'uuid-' || ord, 'SN-' || ord, md5(id) || md5(id), md5(id), now(), now() + interval '30 days', now()
     FROM unnest($1::text[]) WITH ORDINALITY AS t(id, ord)`,
    [ids, HOT.tenantId, HOT.siteId, NODE_POOL],
  );
  await client.query(
    `INSERT INTO node_certificates (node_id, serial, not_before, not_after, sha256, public_key)
     SELECT id, md5(id), now(), now() + interval '30 days', md5(id) || md5(id), $2 FROM unnest($1::text[]) AS t(id)`,
    [ids, spki],
  );
  await client.query(
    `INSERT INTO inventory_snapshots (id, node_id, taken_at, last_reported_at, sections_sha256, changed_sections, sections)
     SELECT s, n, now(), now(), $3, $4, $5 FROM unnest($1::text[], $2::text[]) AS t(n, s)`,
    [ids, snapshotIds, sectionsSha256(inventory), Object.keys(inventory).sort(), JSON.stringify(inventory)],
  );
  await client.query("VACUUM ANALYZE nodes, node_certificates, inventory_snapshots");
  return { ids, tokens: await tokensFor(ids, privateKeyPem), inventory, privateKeyPem };
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

export const listNodesBody = (cursor?: string) =>
  JSON.stringify({ tenantId: HOT.tenantId, poolId: NODE_POOL, limit: 100, ...(cursor ? { cursor } : {}) });
