import { generateKeyPairSync, randomBytes } from "node:crypto";
import { getDb } from "@/server/db/client";
import { newId } from "@/lib/ids";
import { gpuServerInventory, type GpuServerInventory } from "@/lib/inventory/gpu-server-inventory";
import { sectionsSha256 } from "@/lib/inventory/sections-digest";
import type { World } from "./world";

// A node written straight into the database (no join, no CA): a certificate
// row with a key the test holds, so it can speak as the node (SPEC D2), and a
// first snapshot. For unit tests of code that reads nodes as the app stores them.

export interface StoredNode {
  nodeId: string;
  privateKeyPem: string;
  sections: GpuServerInventory;
  snapshotId: string;
}

const DAY_MS = 86_400_000;

export async function storeNode(world: World, options: { revoked?: boolean; at?: Date } = {}): Promise<StoredNode> {
  const at = options.at ?? new Date();
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const nodeId = newId("node");
  const snapshotId = newId("inv");
  const hex = (bytes: number) => randomBytes(bytes).toString("hex");
  const machine = { hostname: `n-${hex(4)}.test`, systemUuid: crypto.randomUUID(), serialNumber: `SN-${hex(3)}` };
  const sections = gpuServerInventory(machine);
  await (
    await getDb()
  ).node.create({
    data: {
      id: nodeId,
      tenantId: world.tenantId,
      siteId: world.siteId,
      poolId: world.pools.a,
      ...machine,
      macAddresses: [`02:00:00:${hex(1)}:${hex(1)}:${hex(1)}`],
      csrSha256: hex(32),
      certSerial: hex(8),
      certNotBefore: at,
      certNotAfter: new Date(at.getTime() + 30 * DAY_MS),
      certSha256: hex(32),
      lastSeenAt: at,
      state: options.revoked ? "revoked" : "active",
      revokedAt: options.revoked ? at : null,
      certificates: {
        create: {
          serial: hex(8),
          notBefore: at,
          notAfter: new Date(at.getTime() + 30 * DAY_MS),
          sha256: hex(32),
          publicKey: publicKey.export({ type: "spki", format: "der" }),
        },
      },
      inventorySnapshots: {
        create: {
          id: snapshotId,
          takenAt: at,
          lastReportedAt: at,
          sectionsSha256: sectionsSha256(sections),
          changedSections: Object.keys(sections).sort(),
          sections: JSON.parse(JSON.stringify(sections)),
        },
      },
    },
  });
  return { nodeId, privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), sections, snapshotId };
}
