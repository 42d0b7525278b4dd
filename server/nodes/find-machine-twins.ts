import "server-only";
import type { Db } from "../db/client";
import { isPlaceholderHardwareId } from "../attestors/hardware";

export interface MachineTwin {
  id: string;
  hostname: string;
}

/**
 * For each active node given, the other active nodes of its pool with the
 * same system UUID. A machine admitted again with a new key (re-imaged)
 * becomes a new node and its earlier one stays active until someone revokes
 * it (SPEC D1): the console points that out. Placeholder UUIDs name no
 * machine, so they make no twins. One query for a whole page of nodes.
 */
export async function findMachineTwins(
  db: Db,
  pool: { id: string; tenantId: string },
  nodes: { id: string; state: string; machine: { systemUuid: string } }[],
): Promise<Map<string, MachineTwin[]>> {
  const uuids = [
    ...new Set(
      nodes
        .filter((node) => node.state === "active" && !isPlaceholderHardwareId(node.machine.systemUuid))
        .map((node) => node.machine.systemUuid),
    ),
  ];
  const twins = new Map<string, MachineTwin[]>();
  if (uuids.length === 0) return twins;
  const active = await db.node.findMany({
    where: { tenantId: pool.tenantId, poolId: pool.id, state: "active", systemUuid: { in: uuids } },
    select: { id: true, hostname: true, systemUuid: true },
    orderBy: { id: "asc" },
  });
  for (const node of nodes) {
    if (node.state !== "active") continue;
    const others = active.filter((other) => other.systemUuid === node.machine.systemUuid && other.id !== node.id);
    if (others.length > 0)
      twins.set(
        node.id,
        others.map(({ id, hostname }) => ({ id, hostname })),
      );
  }
  return twins;
}
