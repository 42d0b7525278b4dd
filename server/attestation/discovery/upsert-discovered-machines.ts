import "server-only";
import { findSite } from "../../places/find-site";
import type { Db, Tx } from "../../db/client";
import { AdminError, parseAdminInput } from "../../admin/admin-error";
import { recordAdminChange, type AdminActor } from "../../admin/record-admin-change";
import { newId } from "@/lib/ids";
import { upsertDiscoveredMachinesInput, type DiscoveredMachineInput } from "@/lib/validations/attestation";

/**
 * Makes machines known to a site's discovery inventory (SPEC E3): new ones
 * are created, known ones take the given MACs and pool. One statement in one
 * transaction: all or nothing. A machine made known is admitted at its next
 * join; requests already pending stay pending (a person still decides).
 */
export async function upsertDiscoveredMachines(args: { db: Db; actor: AdminActor; now: Date; input: unknown }) {
  const { tenantId, siteId, machines, dryRun } = parseAdminInput(upsertDiscoveredMachinesInput, args.input);
  const write = (tx: Tx) => writeDiscoveredMachines(tx, { tenantId, siteId, machines, actor: args.actor, now: args.now });
  if (!dryRun) return args.db.$transaction(write);
  // The very same statement, rolled back: the preview cannot disagree with the import.
  try {
    await args.db.$transaction(async (tx) => {
      throw new RolledBack(await write(tx));
    });
  } catch (error) {
    if (error instanceof RolledBack) return { ...error.counts, dryRun: true as const };
    throw error;
  }
  throw new Error("unreachable: a dry run always rolls back");
}

class RolledBack extends Error {
  constructor(readonly counts: { created: number; updated: number; unchanged: number }) {
    super("dry run: rolled back");
  }
}

/**
 * The upsert inside the caller's transaction, for machines already parsed
 * (unique system UUIDs): the operator's import of a whole manifest writes
 * its batches in one transaction through this.
 */
export async function writeDiscoveredMachines(
  tx: Tx,
  args: { tenantId: string; siteId: string; machines: DiscoveredMachineInput[]; actor: AdminActor; now: Date },
) {
  const { tenantId, siteId, machines } = args;
  await findSite(tx, tenantId, siteId);
  const poolIds = [...new Set(machines.flatMap((machine) => (machine.assignedPoolId ? [machine.assignedPoolId] : [])))];
  const pools = await tx.pool.findMany({ where: { id: { in: poolIds }, tenantId, siteId }, select: { id: true } });
  const missing = poolIds.filter((id) => !pools.some((pool) => pool.id === id));
  if (missing.length)
    throw new AdminError(`assignedPoolId: ${missing.join(", ")} is not a pool of site ${siteId}`, "INVALID_ARGUMENT", [
      { field: "assignedPoolId", message: `${missing.join(", ")} is not a pool of site ${siteId}` },
    ]);

  const rows = JSON.stringify(machines.map((machine) => ({ id: newId("disc", args.now.getTime()), ...machine })));
  // RETURNING lists the inserted rows and the rows an update changed; `xmax = 0` tells which.
  const written = await tx.$queryRaw<{ inserted: boolean }[]>`
    INSERT INTO discovered_machines (id, tenant_id, site_id, system_uuid, mac_addresses, assigned_pool_id, created_at)
    SELECT m.id, ${tenantId}, ${siteId}, m."systemUuid", m."macAddresses", m."assignedPoolId", ${args.now}
    FROM jsonb_to_recordset(${rows}::jsonb) AS m(id text, "systemUuid" text, "macAddresses" text[], "assignedPoolId" text)
    ON CONFLICT (site_id, system_uuid) DO UPDATE
      SET mac_addresses = EXCLUDED.mac_addresses, assigned_pool_id = EXCLUDED.assigned_pool_id
      WHERE (discovered_machines.mac_addresses, discovered_machines.assigned_pool_id)
        IS DISTINCT FROM (EXCLUDED.mac_addresses, EXCLUDED.assigned_pool_id)
    RETURNING (xmax = 0) AS inserted`;
  const created = written.filter((row) => row.inserted).length;
  const counts = { created, updated: written.length - created, unchanged: machines.length - written.length };
  if (written.length > 0) {
    await recordAdminChange(tx, {
      type: "compute.discovery.changed",
      actor: args.actor,
      noun: "discovery",
      verb: "upsert",
      tenantId,
      siteId,
      id: siteId,
      now: args.now,
      data: { created: String(counts.created), updated: String(counts.updated), unchanged: String(counts.unchanged) },
    });
  }
  return counts;
}
