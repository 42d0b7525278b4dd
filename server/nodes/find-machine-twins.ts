import "server-only";
import type { Db } from "../db/client";
import { uuidKeyOf } from "../attestation/attestors/node-identity-keys";
import type { MachineTwin } from "@/lib/nodes/machine-twin";

/**
 * For each active node given, the other active nodes of its pool with the
 * same system UUID. A machine admitted again with a new key (re-imaged)
 * becomes a new node and its earlier one stays active until someone revokes
 * it (SPEC D1): the console points that out. UUIDs compare in any case
 * (SPEC G3); placeholder UUIDs name no machine, so they make no
 * twins. One query for a whole page of nodes.
 */
export async function findMachineTwins(
  db: Db,
  pool: { id: string; tenantId: string },
  nodes: { id: string; state: string; machine: { systemUuid: string } }[],
): Promise<Map<string, MachineTwin[]>> {
  const keyOf = new Map(nodes.map((node) => [node.id, node.state === "active" ? uuidKeyOf(node.machine.systemUuid) : null]));
  const uuidKeys = [...new Set([...keyOf.values()].filter((key) => key !== null))];
  const twins = new Map<string, MachineTwin[]>();
  if (uuidKeys.length === 0) return twins;
  // By the UUID itself, not the stored uuid_key: the active twins this page
  // exists to point out are the ones from before F2, whose uuid_key is unset.
  const active = await db.$queryRaw<{ id: string; hostname: string; uuidKey: string }[]>`
    SELECT id, hostname, lower(btrim(system_uuid)) AS "uuidKey" FROM nodes
    WHERE tenant_id = ${pool.tenantId} AND pool_id = ${pool.id} AND state = 'active'
      AND lower(btrim(system_uuid)) = ANY(${uuidKeys}::text[])
    ORDER BY id`;
  for (const node of nodes) {
    const key = keyOf.get(node.id);
    if (!key) continue;
    const others = active.filter((other) => other.uuidKey === key && other.id !== node.id);
    if (others.length > 0)
      twins.set(
        node.id,
        others.map(({ id, hostname }) => ({ id, hostname })),
      );
  }
  return twins;
}
