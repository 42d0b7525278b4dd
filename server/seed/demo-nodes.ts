import "server-only";
import type { Db } from "../db/client";
import { reportInventory } from "../inventory/report-inventory";
import { verifyJoinBearer } from "../nodes/join-credential";
import { NODE_JSON_SELECT } from "../nodes/node-rows";
import { revokeNode } from "../nodes/revoke-node";
import { makeKeyAndCsr } from "../pki/make-csr";
import { applyInventoryChange, gpuServerInventory, type InventoryChange } from "@/lib/inventory/gpu-server-inventory";
import { DEMO_JOIN_TOKENS } from "./demo-data";
import { joinAsMachine } from "./join-as-machine";
import { demoNodeTpm } from "./demo-node-attestation";

// SPEC D4: GPU servers admitted through the real join (machines acme/fra1's
// discovery knows, gpu-a's proving the allow-listed demo TPM), then reporting their
// inventories: one with a driver upgrade and then a replaced GPU in its
// history, one revoked. Ages spread so the console shows a fresh node, a
// stale one and a certificate close to its expiry.

interface DemoNode {
  hostname: string;
  poolId: "gpu-a" | "gpu-b";
  /** acme/fra1's discovered machine …11n */
  discovered: number;
  joinedDaysAgo: number;
  /** the changes its later reports carry, each a day or more apart */
  changes: InventoryChange[];
  lastSeenMinutesAgo: number;
  revokeReason?: string;
}

export const DEMO_NODES: DemoNode[] = [
  { hostname: "gpu-a-01.fra1.acme.test", poolId: "gpu-a", discovered: 4, joinedDaysAgo: 12, changes: [], lastSeenMinutesAgo: 1 },
  {
    hostname: "gpu-a-02.fra1.acme.test",
    poolId: "gpu-a",
    discovered: 5,
    joinedDaysAgo: 9,
    changes: ["driver", "gpu-replaced"],
    lastSeenMinutesAgo: 2,
  },
  { hostname: "gpu-b-01.fra1.acme.test", poolId: "gpu-b", discovered: 6, joinedDaysAgo: 26, changes: [], lastSeenMinutesAgo: 1 }, // certificate expires in 4 days
  {
    hostname: "gpu-b-02.fra1.acme.test",
    poolId: "gpu-b",
    discovered: 7,
    joinedDaysAgo: 6,
    changes: ["disk-added"],
    lastSeenMinutesAgo: 190,
  }, // stale
  {
    hostname: "gpu-b-03.fra1.acme.test",
    poolId: "gpu-b",
    discovered: 9,
    joinedDaysAgo: 15,
    changes: [],
    lastSeenMinutesAgo: 60 * 24 * 3,
    revokeReason: "failed burn-in: GPU 3 reports uncorrectable ECC errors",
  },
];

const DEMO_ACTOR = "bcsk_acmeadmin";
const DAY = 86_400_000;
const serialOf = (hostname: string) => `S${Buffer.from(hostname).toString("hex").slice(0, 10).toUpperCase()}`;

/** Admits the demo nodes that are missing (found again by hostname), each with its inventory history. */
export async function seedDemoNodes(db: Db, now: Date): Promise<number> {
  let created = 0;
  for (const demo of DEMO_NODES) {
    if (await db.node.findFirst({ where: { tenantId: "acme", hostname: demo.hostname }, select: { id: true } })) continue;
    const joinedAt = new Date(now.getTime() - demo.joinedDaysAgo * DAY);
    const machine = {
      hostname: demo.hostname,
      systemUuid: `11111111-1111-4111-8111-11111111111${demo.discovered}`,
      serialNumber: serialOf(demo.hostname),
      macAddresses: [`52:54:00:11:11:1${demo.discovered}`],
    };
    const nodeId = await admit(db, demo, machine, joinedAt);
    await reportHistory(db, { id: nodeId, tenantId: "acme", siteId: "fra1", poolId: demo.poolId }, demo, machine, joinedAt, now);
    created++;
  }
  return created;
}

async function admit(
  db: Db,
  demo: DemoNode,
  machine: { hostname: string; systemUuid: string; serialNumber: string; macAddresses: string[] },
  joinedAt: Date,
) {
  const token = DEMO_JOIN_TOKENS.find((candidate) => candidate.poolId === demo.poolId)!;
  const credential = await verifyJoinBearer(db, { prefix: "bcjt", id: token.id, secret: token.secret }, joinedAt);
  const { csrPem } = await makeKeyAndCsr(machine.hostname);
  const { outcome } = await joinAsMachine({
    db,
    credential,
    now: joinedAt,
    body: {
      csr: csrPem,
      hostname: machine.hostname,
      hardware: { systemUuid: machine.systemUuid, serialNumber: machine.serialNumber, macAddresses: machine.macAddresses },
    },
    // gpu-a requires TPM: the machine proves the allow-listed demo EK (SPEC F1, F5)
    tpm: demo.poolId === "gpu-a" ? demoNodeTpm(demo.hostname) : undefined,
  });
  if (outcome.status !== "admitted")
    throw new Error(`demo node ${demo.hostname} should be admitted at once, got ${JSON.stringify(outcome)}`);
  return outcome.nodeId;
}

/** The first report a minute after the join, each change a day or more later, the latest report and call `lastSeenMinutesAgo`. */
async function reportHistory(
  db: Db,
  node: { id: string; tenantId: string; siteId: string; poolId: string },
  demo: DemoNode,
  machine: { hostname: string; systemUuid: string; serialNumber: string },
  joinedAt: Date,
  now: Date,
) {
  const lastSeen = new Date(now.getTime() - demo.lastSeenMinutesAgo * 60_000);
  let sections = gpuServerInventory(machine);
  await reportInventory({ db, node, sections, now: new Date(joinedAt.getTime() + 60_000) });
  const step = (lastSeen.getTime() - joinedAt.getTime()) / (demo.changes.length + 1);
  for (const [index, change] of demo.changes.entries()) {
    sections = applyInventoryChange(sections, change);
    await reportInventory({ db, node, sections, now: new Date(joinedAt.getTime() + step * (index + 1)) });
  }
  await reportInventory({ db, node, sections, now: lastSeen }); // unchanged: moves lastReportedAt
  await db.node.update({ where: { id: node.id }, data: { lastSeenAt: lastSeen } });
  if (demo.revokeReason) {
    const row = await db.node.findUniqueOrThrow({ where: { id: node.id }, select: NODE_JSON_SELECT });
    await revokeNode({ db, node: row, reason: demo.revokeReason, actor: DEMO_ACTOR, now: new Date(lastSeen.getTime() + 30 * 60_000) });
  }
}
