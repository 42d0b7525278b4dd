import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activeHostnameAttestor, activeMachineAttestor } from "../attestation/attestors/active-nodes";
import type { AttestationSubject } from "../attestation/attestors/attestor";
import { checkHostnameFree, checkMachineReplaceable, revokeReplacedNodes } from "./replace-machine-nodes";
import {
  createExplainedScratchDatabase,
  indexScan,
  scansOn,
  scratchTenant,
  type ExplainedScratchDatabase,
} from "@/test/api/scratch-database";

// Every join asks whether an active node already holds the machine's UUID or
// its hostname (the attestors, SPEC F2, F3), every admission asks again
// (G7), and a replacing approval revokes the machine's earlier node. In a
// tenant of 100,000 nodes each must be an index lookup: written as Prisma's
// enum comparison, CAST($n::text AS node_state), the planner cannot match it
// to the partial indexes' `state = 'active'` and scans the whole table (the
// benchmark's boot storm). The code itself is called, and the plans
// PostgreSQL chose for what it sent are read. A database of its own, so
// ANALYZE sees only these rows.
const NODES = 5_000;

let scratch: ExplainedScratchDatabase;
let tenantId: string;

const nodeId = (n: number) => `node_${String(n).padStart(26, "0")}`;

beforeAll(async () => {
  scratch = await createExplainedScratchDatabase();
  const ids = await scratchTenant(scratch.db);
  tenantId = ids.tenantId;
  await scratch.db.$executeRawUnsafe(
    `INSERT INTO nodes (id, tenant_id, site_id, pool_id, hostname, hostname_key, system_uuid, uuid_key, serial_number,
       csr_sha256, cert_serial, cert_not_after)
     SELECT 'node_' || lpad(g::text, 26, '0'), $1, $2, $3, 'host-' || g, 'host-' || g, 'uuid-' || g, 'uuid-' || g, 'SN',
       md5(g::text) || md5(g::text), md5(g::text), now() + interval '30 days'
     FROM generate_series(1, $4::int) g`,
    ids.tenantId,
    ids.siteId,
    ids.poolId,
    NODES,
  );
  await scratch.db.$executeRawUnsafe("ANALYZE nodes");
}, 120_000);

afterAll(async () => {
  await scratch?.drop();
});

const subject = (machine: { systemUuid: string; hostname: string }): AttestationSubject => ({
  tenantId,
  siteId: "unused",
  pool: null,
  credential: "join-token",
  machine: { ...machine, serialNumber: "SN", macAddresses: [], tpmEkSha256: null },
  tpmProof: { akName: null, proven: false },
});

describe("the machine identity lookups on PostgreSQL", () => {
  it("the join's attestors find an active node by UUID and by hostname through the partial unique indexes", async () => {
    const byUuid = await scratch.plansOf(() =>
      activeMachineAttestor.attest(scratch.db, subject({ systemUuid: "uuid-42", hostname: "new" })),
    );
    expect(byUuid.result).toEqual({ defer: "machine-already-joined" });
    expect(scansOn(byUuid.plans, "nodes")).toEqual([indexScan("nodes_active_uuid_key")]);

    const byName = await scratch.plansOf(() =>
      activeHostnameAttestor.attest(scratch.db, subject({ systemUuid: "uuid-new", hostname: "HOST-7" })),
    );
    expect(byName.result).toEqual({ defer: "hostname-in-use" });
    expect(scansOn(byName.plans, "nodes")).toEqual([indexScan("nodes_active_hostname_key")]);

    const free = await scratch.plansOf(() =>
      activeHostnameAttestor.attest(scratch.db, subject({ systemUuid: "uuid-new", hostname: "new" })),
    );
    expect(free.result).toEqual({});
  });

  it("the admission finds an active node by UUID, and by hostname the machine's own node aside, through the same indexes", async () => {
    const byUuid = await scratch.plansOf(() =>
      checkMachineReplaceable(scratch.db, { tenantId, systemUuid: "uuid-42", reasons: [] }).catch((error: Error) => error.message),
    );
    expect(byUuid.result).toMatch(`belongs to active node ${nodeId(42)}`);
    expect(scansOn(byUuid.plans, "nodes")).toEqual([indexScan("nodes_active_uuid_key")]);

    const byName = await scratch.plansOf(() =>
      checkHostnameFree(scratch.db, { tenantId, hostname: "host-7", systemUuid: "uuid-8" }).catch((error: Error) => error.message),
    );
    expect(byName.result).toMatch(`belongs to active node ${nodeId(7)}`);
    expect(scansOn(byName.plans, "nodes")).toEqual([indexScan("nodes_active_hostname_key")]);
    await expect(checkHostnameFree(scratch.db, { tenantId, hostname: "host-7", systemUuid: "uuid-7" })).resolves.toBeUndefined();
  });

  it("a replacing approval revokes the machine's earlier node through nodes_active_uuid_key", async () => {
    const now = new Date();
    const revoked = await scratch.plansOf(() =>
      scratch.db.$transaction((tx) =>
        revokeReplacedNodes(tx, {
          request: { tenantId, systemUuid: "uuid-44", reasons: ["machine-already-joined"] },
          nodeId: "node_new",
          actor: "user:ada",
          now,
        }),
      ),
    );
    expect(scansOn(revoked.plans, "nodes")).toEqual([indexScan("nodes_active_uuid_key")]);
    const node = await scratch.db.node.findUniqueOrThrow({ where: { id: nodeId(44) } });
    expect(node).toMatchObject({ state: "revoked", revokedAt: now, revokedBy: "user:ada", revokeReason: "replaced by node_new" });
    const events = await scratch.db.event.findMany({ where: { type: "compute.node.revoked" } });
    expect(events).toHaveLength(1);
  });
});
