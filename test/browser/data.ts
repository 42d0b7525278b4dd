import { randomBytes } from "node:crypto";
import pg from "pg";
import { newId } from "@/lib/ids";
import type { JoinRequestReason } from "@/lib/join-requests/join-request-json";

// Each spec makes its own join requests, straight into the test database (as
// the machine join would: the row and its `created` event in one
// transaction), with random hostnames so that specs running in parallel on
// the shared demo pools never look at each other's rows.

let pool: pg.Pool | undefined;
export function db(): pg.Pool {
  if (!process.env.DATABASE_URL) throw new Error("DATABASE_URL is not set: run through `npm test` or the Playwright global setup");
  pool ??= new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  return pool;
}

export const randomSuffix = () => randomBytes(4).toString("hex");

export interface CreatedRequest {
  id: string;
  hostname: string;
  csrSha256: string;
}

/** A pending request in `poolId` (null: an unclaimed request of `siteId`). */
export async function createPendingRequest(spec: {
  poolId: string | null;
  tenantId?: string;
  siteId?: string;
  label?: string;
  reasons?: JoinRequestReason[];
  tpmEkSha256?: string | null;
  /** SPEC G2: the EK was proven by credential activation (default: false) */
  tpmEkProven?: boolean;
  ttlSeconds?: number;
  /** when the machine asked (default: now) */
  at?: Date;
}): Promise<CreatedRequest> {
  const tenantId = spec.tenantId ?? "acme";
  const siteId = spec.siteId ?? "fra1";
  const n = randomSuffix();
  const now = spec.at ?? new Date();
  const id = newId("jreq", now.getTime());
  const hostname = `e2e-${spec.label ?? "node"}-${n}.${siteId}.${tenantId}.test`;
  const csrSha256 = randomBytes(32).toString("hex");
  const reasons = spec.reasons ?? ["unknown-to-discovery"];
  const expiresAt = new Date(now.getTime() + (spec.ttlSeconds ?? 24 * 3600) * 1000);
  const client = await db().connect();
  try {
    await client.query("BEGIN");
    await client.query(
      `INSERT INTO join_requests (id, tenant_id, site_id, pool_id, state, reasons, hostname, system_uuid, serial_number,
         mac_addresses, tpm_ek_sha256, csr_sha256, created_at, expires_at, join_token_id, enroll_key_id, tpm_ek_proven)
       VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
      [
        id,
        tenantId,
        siteId,
        spec.poolId,
        reasons,
        hostname,
        `e2e0${n.slice(0, 4)}-0000-4000-8000-${n}0000`,
        `SN-E2E-${n}`,
        [`02:e2:${n.slice(0, 2)}:${n.slice(2, 4)}:${n.slice(4, 6)}:${n.slice(6, 8)}`],
        spec.tpmEkSha256 ?? null,
        csrSha256,
        now,
        expiresAt,
        spec.poolId ? "e2e-token" : null,
        spec.poolId ? null : "e2e-enroll-key",
        spec.tpmEkProven ?? false,
      ],
    );
    await client.query(
      `INSERT INTO events (id, type, occurred_at, tenant_id, site_id, pool_id, request_id, data)
       VALUES ($1, 'security.join-request.created', $2, $3, $4, $5, $6, $7)`,
      [
        newId("evt", now.getTime()),
        now,
        tenantId,
        siteId,
        spec.poolId,
        id,
        JSON.stringify({ requestId: id, siteId, poolId: spec.poolId, actor: hostname, reasons, expiresAt: expiresAt.toISOString() }),
      ],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
  return { id, hostname, csrSha256 };
}

export interface StoredRequest {
  state: string;
  poolId: string | null;
  expiresAt: Date;
  decidedAt: Date | null;
  decidedBy: string | null;
  reason: string | null;
}

/** The request as stored (not the effective state). */
export async function storedRequest(id: string): Promise<StoredRequest> {
  const { rows } = await db().query(
    `SELECT state::text AS state, pool_id AS "poolId", expires_at AS "expiresAt", decided_at AS "decidedAt",
       decided_by AS "decidedBy", reason FROM join_requests WHERE id = $1`,
    [id],
  );
  if (!rows[0]) throw new Error(`no join request ${id}`);
  return rows[0] as StoredRequest;
}

/** A (seeded) request's stored identifiers, found by its hostname. */
export async function storedMachineOf(tenantId: string, hostname: string) {
  const { rows } = await db().query(
    `SELECT id, system_uuid AS "systemUuid", mac_addresses AS "macAddresses", tpm_ek_sha256 AS "tpmEkSha256", csr_sha256 AS "csrSha256"
       FROM join_requests WHERE tenant_id = $1 AND hostname = $2 ORDER BY id LIMIT 1`,
    [tenantId, hostname],
  );
  if (!rows[0]) throw new Error(`no join request of ${hostname}`);
  return rows[0] as { id: string; systemUuid: string; macAddresses: string[]; tpmEkSha256: string | null; csrSha256: string };
}

/** SPEC H1: a request's stored approvals, oldest first. */
export async function storedApprovals(requestId: string): Promise<{ principal: string; ttlSeconds: number }[]> {
  const { rows } = await db().query(
    `SELECT principal, ttl_seconds AS "ttlSeconds" FROM join_request_approvals WHERE request_id = $1 ORDER BY approved_at, principal`,
    [requestId],
  );
  return rows as { principal: string; ttlSeconds: number }[];
}

/** SPEC H1: a pool's stored approvals required. */
export async function storedApprovalsRequired(poolId: string): Promise<number> {
  const { rows } = await db().query(`SELECT approvals_required AS "approvalsRequired" FROM pools WHERE id = $1`, [poolId]);
  if (!rows[0]) throw new Error(`no pool ${poolId}`);
  return rows[0].approvalsRequired as number;
}

export async function userIdOf(email: string): Promise<string> {
  const { rows } = await db().query(`SELECT id FROM users WHERE email = $1`, [email]);
  if (!rows[0]) throw new Error(`no user ${email}`);
  return rows[0].id as string;
}

/** A pool of its own (in a site of its own) in acme, for a spec that must not share a queue. */
export async function createAcmePool(label: string, options: { requiresTpm?: boolean } = {}): Promise<{ poolId: string; siteId: string }> {
  const n = randomSuffix();
  const siteId = `e2e-site-${n}`;
  const poolId = `e2e-${label}-${n}`;
  await db().query(`INSERT INTO sites (id, tenant_id, name) VALUES ($1, 'acme', $2)`, [siteId, `E2E site ${n}`]);
  await insertPool(poolId, siteId, `E2E ${label} ${n}`, options.requiresTpm ?? false);
  return { poolId, siteId };
}

/** Another pool of acme on `siteId`: a site's unclaimed requests show in each of its pools. */
export async function addAcmePool(siteId: string, label: string): Promise<string> {
  const n = randomSuffix();
  const poolId = `e2e-${label}-${n}`;
  await insertPool(poolId, siteId, `E2E ${label} ${n}`);
  return poolId;
}

async function insertPool(poolId: string, siteId: string, name: string, requiresTpm = false) {
  await db().query(`INSERT INTO pools (id, tenant_id, site_id, name, requires_tpm) VALUES ($1, 'acme', $2, $3, $4)`, [
    poolId,
    siteId,
    name,
    requiresTpm,
  ]);
}

/**
 * `count` active nodes straight into `poolId` (as an admission would leave
 * them, without a certificate row), in id order; each its own machine unless
 * `systemUuid` makes them one machine admitted again.
 */
export async function createNodes(
  poolId: string,
  siteId: string,
  count: number,
  options: { systemUuid?: string } = {},
): Promise<{ id: string; hostname: string }[]> {
  const nodes = Array.from({ length: count }, (_, index) => ({
    id: newId("node"),
    hostname: `e2e-node-${String(index).padStart(3, "0")}-${randomSuffix()}.test`,
  }));
  await db().query(
    `INSERT INTO nodes (id, tenant_id, site_id, pool_id, hostname, system_uuid, serial_number, csr_sha256, cert_serial, cert_not_before, cert_not_after, last_seen_at)
     SELECT n.id, 'acme', $3, $4, n.hostname, COALESCE($5, 'uuid-' || n.id), 'SN-' || n.id, md5(n.id) || md5(n.id), md5(n.id), now(), now() + interval '30 days', now()
     FROM unnest($1::text[], $2::text[]) AS n(id, hostname)`,
    [nodes.map((node) => node.id), nodes.map((node) => node.hostname), siteId, poolId, options.systemUuid ?? null],
  );
  return nodes;
}

/** A machine acme's discovery inventory knows in `siteId`, assigned to `poolId`: its join is admitted at once (SPEC B5). */
export async function addDiscoveredMachine(siteId: string, poolId: string, machine: { systemUuid: string; macAddresses: string[] }) {
  await db().query(
    `INSERT INTO discovered_machines (id, tenant_id, site_id, system_uuid, mac_addresses, assigned_pool_id) VALUES ($1, 'acme', $2, $3, $4, $5)`,
    [newId("disc"), siteId, machine.systemUuid, machine.macAddresses, poolId],
  );
}

/** The id of the seeded (SPEC D4) node `hostname` of acme. */
export async function nodeIdOf(hostname: string): Promise<string> {
  const { rows } = await db().query(`SELECT id FROM nodes WHERE tenant_id = 'acme' AND hostname = $1 ORDER BY created_at DESC LIMIT 1`, [
    hostname,
  ]);
  if (!rows[0]) throw new Error(`no node ${hostname}`);
  return rows[0].id as string;
}
