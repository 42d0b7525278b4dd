import "server-only";
import type { Db } from "../db/client";
import { approveJoinRequest } from "../join-requests/approve-join-request";
import { rejectJoinRequest } from "../join-requests/reject-join-request";
import { verifyJoinBearer } from "../nodes/join-credential";
import { joinNode } from "../nodes/join-node";
import { makeKeyAndCsr } from "../pki/make-csr";
import { findPool } from "../places/find-pool";
import type { JoinRequestReason } from "@/lib/join-requests/join-request-json";
import { DEMO_ENROLLMENT_KEYS, DEMO_JOIN_TOKENS, DEMO_TAMPERED_IMAGE_BYTE } from "./demo-data";
import { approveFirstOfTwo } from "./demo-quorum-pool";
import { demoSoftwareTpm, joinAsMachine } from "./join-as-machine";

// A handful of requests in every state across gpu-a, gpu-b and unclaimed in
// fra1 (plus one each in cpu-x and globex-gpu), so the console is never empty.
// Each is a real join (a fresh key pair and CSR, the demo credentials, the
// attestors against the demo inventory and allow-list), then decided with
// the approve/reject functions the API uses.
// "one-approval": pending in a pool that requires two, approved once (SPEC H1).
type Outcome = "pending" | "approved" | "rejected" | "consumed" | "expired" | "one-approval";

interface DemoMachine {
  hostname: string;
  systemUuid: string;
  serialNumber: string;
  macAddresses: string[];
  /** the endorsement key presented: acme's allowed one, one no allow-list knows, or no TPM */
  ek: "allowed" | "unknown" | null;
  /** SPEC I2: what its boot extended PCR 7 with (one byte, 32 times); none: untouched PCRs */
  bootByte?: number;
}

interface DemoRequest {
  key: string;
  tenantId: string;
  siteId: string;
  /** joins with this pool's demo token; null: with the site's enrollment key (unclaimed) */
  poolId: string | null;
  outcome: Outcome;
  /** what the attestors answer for this machine (checked as it is seeded) */
  reasons: JoinRequestReason[];
  machine: DemoMachine;
  /** how long ago the machine asked */
  ageMinutes: number;
}

function machine(n: number, overrides: Partial<DemoMachine> = {}): DemoMachine {
  const hex = n.toString(16).padStart(2, "0");
  return {
    hostname: `node-${String(n).padStart(3, "0")}.fra1.acme.test`,
    systemUuid: `4c4c4544-00${hex}-4d10-8052-b4c04f${hex}4a31`,
    serialNumber: `SN-ACME-${String(4000 + n)}`,
    macAddresses: [`3c:ec:ef:10:${hex}:01`, `3c:ec:ef:10:${hex}:02`],
    ek: null,
    ...overrides,
  };
}

/** The identifiers of acme/fra1's discovered machine n (1-9; 8 and 9 are assigned to gpu-b). */
const discovered = (n: number) => ({ systemUuid: `11111111-1111-4111-8111-11111111111${n}`, macAddresses: [`52:54:00:11:11:1${n}`] });

const acmeFra1 = { tenantId: "acme", siteId: "fra1" } as const;

export const DEMO_JOIN_REQUESTS: DemoRequest[] = [
  {
    key: "gpu-a-placeholder",
    ...acmeFra1,
    poolId: "gpu-a",
    outcome: "pending",
    ageMinutes: 95,
    reasons: ["placeholder-hardware-id", "unknown-to-discovery"],
    machine: machine(1, { serialNumber: "To Be Filled By O.E.M.", ek: "allowed" }),
  },
  {
    key: "gpu-a-unknown-ek",
    ...acmeFra1,
    poolId: "gpu-a",
    outcome: "pending",
    ageMinutes: 42,
    reasons: ["unknown-to-discovery", "tpm-ek-not-allowed"],
    machine: machine(2, { ek: "unknown" }),
  },
  {
    key: "gpu-a-approved",
    ...acmeFra1,
    poolId: "gpu-a",
    outcome: "approved",
    ageMinutes: 30,
    reasons: ["unknown-to-discovery"],
    machine: machine(3, { ek: "allowed" }),
  },
  {
    key: "gpu-a-rejected",
    ...acmeFra1,
    poolId: "gpu-a",
    outcome: "rejected",
    ageMinutes: 300,
    reasons: ["tpm-ek-not-allowed"],
    machine: machine(4, { ...discovered(1), ek: "unknown" }),
  },
  {
    key: "gpu-a-consumed",
    ...acmeFra1,
    poolId: "gpu-a",
    outcome: "consumed",
    ageMinutes: 600,
    reasons: ["unknown-to-discovery"],
    machine: machine(5, { ek: "allowed" }),
  },
  {
    key: "gpu-a-expired",
    ...acmeFra1,
    poolId: "gpu-a",
    outcome: "expired",
    ageMinutes: 60 * 30,
    // a placeholder UUID names no machine: a discovered MAC does not make it known (SPEC G3)
    reasons: ["placeholder-hardware-id", "unknown-to-discovery"],
    machine: machine(6, { systemUuid: "00000000-0000-0000-0000-000000000000", macAddresses: discovered(2).macAddresses, ek: "allowed" }),
  },
  {
    key: "gpu-b-pending",
    ...acmeFra1,
    poolId: "gpu-b",
    outcome: "pending",
    ageMinutes: 12,
    reasons: ["unknown-to-discovery"],
    machine: machine(7),
  },
  {
    key: "gpu-b-approved",
    ...acmeFra1,
    poolId: "gpu-b",
    outcome: "approved",
    ageMinutes: 20,
    reasons: ["placeholder-hardware-id"],
    machine: machine(8, { ...discovered(3), serialNumber: "Default string" }),
  },
  {
    key: "gpu-b-rejected",
    ...acmeFra1,
    poolId: "gpu-b",
    outcome: "rejected",
    ageMinutes: 200,
    reasons: ["unknown-to-discovery"],
    machine: machine(9),
  },
  {
    key: "fra1-unclaimed-1",
    ...acmeFra1,
    poolId: null,
    outcome: "pending",
    ageMinutes: 8,
    reasons: ["unknown-to-discovery"],
    machine: machine(10),
  },
  {
    key: "fra1-unclaimed-2",
    ...acmeFra1,
    poolId: null,
    outcome: "pending",
    ageMinutes: 3,
    reasons: ["placeholder-hardware-id", "unknown-to-discovery"],
    machine: machine(11, { systemUuid: "03000200-0400-0500-0006-000700080009" }),
  },
  {
    key: "fra1-unclaimed-expired",
    ...acmeFra1,
    poolId: null,
    outcome: "expired",
    ageMinutes: 60 * 26,
    reasons: ["unknown-to-discovery"],
    machine: machine(12),
  },
  {
    key: "gpu-c-one-approval",
    ...acmeFra1,
    poolId: "gpu-c",
    outcome: "one-approval",
    ageMinutes: 18,
    reasons: ["unknown-to-discovery"],
    machine: machine(15),
  },
  {
    // SPEC I2: its software TPM quotes a PCR 7 no known state of gpu-d has
    key: "gpu-d-boot-unknown",
    ...acmeFra1,
    poolId: "gpu-d",
    outcome: "pending",
    ageMinutes: 6,
    reasons: ["unknown-to-discovery", "boot-state-unknown"],
    machine: machine(16, { ek: "allowed", bootByte: DEMO_TAMPERED_IMAGE_BYTE }),
  },
  {
    key: "cpu-x-pending",
    tenantId: "acme",
    siteId: "ams1",
    poolId: "cpu-x",
    outcome: "pending",
    ageMinutes: 15,
    reasons: ["unknown-to-discovery"],
    machine: machine(13, { hostname: "node-013.ams1.acme.test" }),
  },
  {
    key: "globex-pending",
    tenantId: "globex",
    siteId: "nyc1",
    poolId: "globex-gpu",
    outcome: "pending",
    ageMinutes: 25,
    reasons: ["unknown-to-discovery"],
    machine: machine(14, { hostname: "gx-014.nyc1.globex.test" }),
  },
];

const DEMO_ACTOR = "bcsk_acmeadmin";

/** Seeds the demo requests that are missing; a demo machine already asked (its hostname is there) is left as it is. */
export async function seedDemoJoinRequests(db: Db, now: Date = new Date()): Promise<number> {
  let created = 0;
  for (const demo of DEMO_JOIN_REQUESTS) {
    const seeded = await db.joinRequest.findFirst({
      where: { tenantId: demo.tenantId, hostname: demo.machine.hostname },
      select: { id: true },
    });
    if (seeded) continue;
    const askedAt = new Date(now.getTime() - demo.ageMinutes * 60_000);
    const { requestId, body } = await joinAsTheMachine(db, demo, askedAt);
    await decide(db, demo, requestId, askedAt);
    if (demo.outcome === "consumed") {
      // the machine's retry with the same CSR uses the approval: a node, linked to its request (SPEC D1)
      const retriedAt = new Date(askedAt.getTime() + 3 * 60_000);
      // a retry needs no TPM proof: a person decided (SPEC F1 proves the EK for the attestors only)
      const retry = await joinNode({ db, credential: await verifyJoinBearer(db, demoBearer(demo), retriedAt), body, now: retriedAt });
      if (retry.status !== "admitted") throw new Error(`demo retry ${demo.key} should consume its approval, got ${JSON.stringify(retry)}`);
    }
    created++;
  }
  return created;
}

/** The machine's first join, as the daemon would make it; it must be deferred with the demo's reasons. */
async function joinAsTheMachine(db: Db, demo: DemoRequest, askedAt: Date) {
  const { ek, bootByte, ...hardware } = demo.machine;
  const tpm = ek ? demoSoftwareTpm(ek) : undefined;
  if (tpm && bootByte !== undefined) tpm.extendPcr(7, Buffer.alloc(32, bootByte));
  const { csrPem } = await makeKeyAndCsr(hardware.hostname);
  const credential = await verifyJoinBearer(db, demoBearer(demo), askedAt);
  const { outcome, body } = await joinAsMachine({
    db,
    credential,
    now: askedAt,
    body: {
      csr: csrPem,
      hostname: hardware.hostname,
      hardware: { systemUuid: hardware.systemUuid, serialNumber: hardware.serialNumber, macAddresses: hardware.macAddresses },
    },
    tpm,
  });
  if (outcome.status !== "pending" || outcome.reasons.join() !== demo.reasons.join()) {
    throw new Error(`demo join ${demo.key} should be deferred with [${demo.reasons}], got ${JSON.stringify(outcome)}`);
  }
  return { requestId: outcome.requestId, body };
}

function demoBearer(demo: DemoRequest) {
  if (demo.poolId) {
    const token = DEMO_JOIN_TOKENS.find((candidate) => candidate.poolId === demo.poolId)!;
    return { prefix: "bcjt" as const, id: token.id, secret: token.secret };
  }
  const key = DEMO_ENROLLMENT_KEYS.find((candidate) => candidate.siteId === demo.siteId)!;
  return { prefix: "bcse" as const, id: key.id, secret: key.secret };
}

async function decide(db: Db, demo: DemoRequest, requestId: string, askedAt: Date) {
  if (demo.outcome === "pending" || demo.outcome === "expired") return; // expired: its 24 h passed
  const pool = await findPool(db, demo.tenantId, demo.poolId!);
  const decidedAt = new Date(askedAt.getTime() + 2 * 60_000);
  if (demo.outcome === "one-approval") {
    await approveFirstOfTwo(db, pool, requestId, decidedAt);
    return;
  }
  if (demo.outcome === "rejected") {
    await rejectJoinRequest({ db, pool, requestId, reason: "hardware not expected at this site", actor: DEMO_ACTOR, now: decidedAt });
    return;
  }
  await approveJoinRequest({
    db,
    pool,
    requestId,
    ttlSeconds: 4 * 3600,
    reason: "racked by ops, ticket OPS-1042",
    actor: DEMO_ACTOR,
    now: decidedAt,
  });
}
