import { randomBytes } from "node:crypto";
import type pg from "pg";
import { hashSecret } from "@/server/auth/credentials";
import { makeKeyAndCsr } from "@/server/pki/make-csr";
import { HOT } from "./workload/dataset";

// The machine's path: a first join deferred into a pending request (202),
// then, once approved, the retry with the same CSR consumed (200 + a
// certificate signed by the tenant CA). Machines are unknown to discovery,
// so every first join defers.

export const JOIN_POOL = "bench-t0-s0-join";
export const JOIN_TOKEN = { id: "benchjoin", secret: "bench-join-secret" };
export const JOIN_BEARER = `bcjt_${JOIN_TOKEN.id}.${JOIN_TOKEN.secret}`;

export async function createJoinPool(client: pg.Client): Promise<void> {
  await client.query(`INSERT INTO pools (id, tenant_id, site_id, name) VALUES ($1, $2, $3, $1)`, [JOIN_POOL, HOT.tenantId, HOT.siteId]);
  await client.query(
    `INSERT INTO join_tokens (id, tenant_id, pool_id, secret_hash, max_uses, expires_at, created_by)
     VALUES ($1, $2, $3, $4, 100000000, now() + interval '1 day', 'bench')`,
    [JOIN_TOKEN.id, HOT.tenantId, JOIN_POOL, Buffer.from(hashSecret(JOIN_TOKEN.secret))],
  );
}

/** `count` machines, each a real key pair and CSR, as join bodies. */
export async function makeJoinBodies(count: number): Promise<string[]> {
  const bodies: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomBytes(6).toString("hex");
    const hostname = `bench-${id}.join.test`;
    const { csrPem } = await makeKeyAndCsr(hostname);
    const mac = id.match(/../g)!.join(":");
    bodies.push(
      JSON.stringify({
        csr: csrPem,
        hostname,
        hardware: { systemUuid: `b0000000-0000-4000-8000-${id}`, serialNumber: `SN-${id}`, macAddresses: [mac] },
        tpm: null,
      }),
    );
  }
  return bodies;
}

/** Approves every pending request of the join pool, as an admin would, in one statement. */
export async function approveAllJoins(client: pg.Client): Promise<void> {
  await client.query(
    `UPDATE join_requests SET state = 'approved', expires_at = now() + interval '1 hour', decided_at = now(), decided_by = 'bcsk_benchadmin'
     WHERE pool_id = $1 AND state = 'pending'`,
    [JOIN_POOL],
  );
}
