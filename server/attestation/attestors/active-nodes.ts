import "server-only";
import type { Db } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import { readRows } from "../../db/read-rows";
import { hostnameKeyOf, uuidKeyOf } from "./node-identity-keys";
import type { Attestor } from "./attestor";

// One active node per machine and per hostname in a tenant (SPEC F2, F3).
// A copied UUID or a taken name is not refused: a person decides, and the
// approval's consumption replaces the machine's earlier node.
//
// Every lookup of an active node by its keys (here, and the admission's in
// replace-machine-nodes.ts) is raw SQL with `state = 'active'` written out:
// that is what lets PostgreSQL use the partial unique indexes
// nodes_active_uuid_key and nodes_active_hostname_key. Prisma compares an
// enum as CAST($n::text AS node_state), which the planner cannot match to an
// index predicate, so each join read the tenant's whole nodes table (a
// parallel scan of 110,000 rows per admission in the benchmark's boot storm;
// server/nodes/machine-identity-plan.test.ts).

/** The tenant's active nodes holding a machine's UUID: at most one (nodes_active_uuid_key). */
export function activeUuidHoldersSql(tenantId: string, uuidKey: string): Prisma.Sql {
  return Prisma.sql`tenant_id = ${tenantId} AND uuid_key = ${uuidKey} AND state = 'active'`;
}

/** The tenant's active node holding a machine's UUID. */
export function activeNodeWithUuidSql(tenantId: string, uuidKey: string): Prisma.Sql {
  return Prisma.sql`SELECT id FROM nodes WHERE ${activeUuidHoldersSql(tenantId, uuidKey)} LIMIT 1`;
}

/** The tenant's active node holding a hostname, other than the machine's own earlier node when given (nodes_active_hostname_key). */
export function activeNodeWithHostnameSql(tenantId: string, hostnameKey: string, ownUuidKey: string | null): Prisma.Sql {
  // the machine's own earlier node gives its name up when it is replaced
  const notItsOwn = ownUuidKey ? Prisma.sql`AND (uuid_key IS NULL OR uuid_key <> ${ownUuidKey})` : Prisma.empty;
  return Prisma.sql`
    SELECT id FROM nodes WHERE tenant_id = ${tenantId} AND hostname_key = ${hostnameKey} AND state = 'active' ${notItsOwn} LIMIT 1`;
}

async function holds(db: Db, sql: Prisma.Sql): Promise<boolean> {
  return (await readRows<{ id: string }>(db, sql)).length > 0;
}

export const activeMachineAttestor: Attestor = {
  name: "active-machine",
  async attest(db, { tenantId, machine }) {
    const uuidKey = uuidKeyOf(machine.systemUuid);
    return uuidKey && (await holds(db, activeNodeWithUuidSql(tenantId, uuidKey))) ? { defer: "machine-already-joined" } : {};
  },
};

export const activeHostnameAttestor: Attestor = {
  name: "active-hostname",
  async attest(db, { tenantId, machine }) {
    const taken = await holds(db, activeNodeWithHostnameSql(tenantId, hostnameKeyOf(machine.hostname), null));
    return taken ? { defer: "hostname-in-use" } : {};
  },
};
