import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "../db/client";
import { createJoinRequest, type MachineFacts } from "../join-requests/create-join-request";
import { approveJoinRequest } from "../join-requests/approve-join-request";
import { rejectJoinRequest } from "../join-requests/reject-join-request";
import { consumeApproval } from "../join-requests/consume-approval";
import { findPool } from "../pools/find-pool";
import type { JoinRequestReason } from "@/lib/join-requests/join-request-json";
import { DEMO_ENROLLMENT_KEYS, DEMO_JOIN_TOKENS } from "./demo-data";

// A handful of requests in every state across gpu-a, gpu-b and unclaimed in
// fra1 (plus one each in cpu-x and globex-gpu), so the console is never empty.
type Outcome = "pending" | "approved" | "rejected" | "consumed" | "expired";

interface DemoRequest {
  key: string;
  tenantId: string;
  siteId: string;
  poolId: string | null;
  outcome: Outcome;
  reasons: JoinRequestReason[];
  machine: MachineFacts;
  /** how long ago the machine asked */
  ageMinutes: number;
}

const ALLOWED_EK = "15426fb055f5461484bf419f7e67ba400ddfc2b54d90981cb9f65f6ffc228af1";
const UNKNOWN_EK = "9c1b6e0f3f3c4b8e2f1d7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d";

function machine(n: number, overrides: Partial<MachineFacts> = {}): MachineFacts {
  const hex = n.toString(16).padStart(2, "0");
  return {
    hostname: `node-${String(n).padStart(3, "0")}.fra1.acme.test`,
    systemUuid: `4c4c4544-00${hex}-4d10-8052-b4c04f${hex}4a31`,
    serialNumber: `SN-ACME-${String(4000 + n)}`,
    macAddresses: [`3c:ec:ef:10:${hex}:01`, `3c:ec:ef:10:${hex}:02`],
    tpmEkSha256: null,
    ...overrides,
  };
}

const acmeFra1 = { tenantId: "acme", siteId: "fra1" } as const;

export const DEMO_JOIN_REQUESTS: DemoRequest[] = [
  { key: "gpu-a-placeholder", ...acmeFra1, poolId: "gpu-a", outcome: "pending", ageMinutes: 95, reasons: ["placeholder-hardware-id", "unknown-to-discovery"], machine: machine(1, { serialNumber: "To Be Filled By O.E.M.", tpmEkSha256: ALLOWED_EK }) },
  { key: "gpu-a-unknown-ek", ...acmeFra1, poolId: "gpu-a", outcome: "pending", ageMinutes: 42, reasons: ["unknown-to-discovery", "tpm-ek-not-allowed"], machine: machine(2, { tpmEkSha256: UNKNOWN_EK }) },
  { key: "gpu-a-approved", ...acmeFra1, poolId: "gpu-a", outcome: "approved", ageMinutes: 30, reasons: ["unknown-to-discovery"], machine: machine(3, { tpmEkSha256: ALLOWED_EK }) },
  { key: "gpu-a-rejected", ...acmeFra1, poolId: "gpu-a", outcome: "rejected", ageMinutes: 300, reasons: ["tpm-ek-not-allowed"], machine: machine(4, { tpmEkSha256: UNKNOWN_EK }) },
  { key: "gpu-a-consumed", ...acmeFra1, poolId: "gpu-a", outcome: "consumed", ageMinutes: 600, reasons: ["unknown-to-discovery"], machine: machine(5, { tpmEkSha256: ALLOWED_EK }) },
  { key: "gpu-a-expired", ...acmeFra1, poolId: "gpu-a", outcome: "expired", ageMinutes: 60 * 30, reasons: ["placeholder-hardware-id"], machine: machine(6, { systemUuid: "00000000-0000-0000-0000-000000000000", tpmEkSha256: ALLOWED_EK }) },
  { key: "gpu-b-pending", ...acmeFra1, poolId: "gpu-b", outcome: "pending", ageMinutes: 12, reasons: ["unknown-to-discovery"], machine: machine(7) },
  { key: "gpu-b-approved", ...acmeFra1, poolId: "gpu-b", outcome: "approved", ageMinutes: 20, reasons: ["placeholder-hardware-id"], machine: machine(8, { serialNumber: "Default string" }) },
  { key: "gpu-b-rejected", ...acmeFra1, poolId: "gpu-b", outcome: "rejected", ageMinutes: 200, reasons: ["unknown-to-discovery"], machine: machine(9) },
  { key: "fra1-unclaimed-1", ...acmeFra1, poolId: null, outcome: "pending", ageMinutes: 8, reasons: ["unknown-to-discovery"], machine: machine(10) },
  { key: "fra1-unclaimed-2", ...acmeFra1, poolId: null, outcome: "pending", ageMinutes: 3, reasons: ["placeholder-hardware-id", "unknown-to-discovery"], machine: machine(11, { systemUuid: "03000200-0400-0500-0006-000700080009" }) },
  { key: "fra1-unclaimed-expired", ...acmeFra1, poolId: null, outcome: "expired", ageMinutes: 60 * 26, reasons: ["unknown-to-discovery"], machine: machine(12) },
  { key: "cpu-x-pending", tenantId: "acme", siteId: "ams1", poolId: "cpu-x", outcome: "pending", ageMinutes: 15, reasons: ["unknown-to-discovery"], machine: machine(13, { hostname: "node-013.ams1.acme.test" }) },
  { key: "globex-pending", tenantId: "globex", siteId: "nyc1", poolId: "globex-gpu", outcome: "pending", ageMinutes: 25, reasons: ["unknown-to-discovery"], machine: machine(14, { hostname: "gx-014.nyc1.globex.test" }) },
];

/** A stable stand-in for the CSR hash, so reseeding finds what it made. */
export const demoCsrSha256 = (key: string) => createHash("sha256").update(`demo-csr:${key}`).digest("hex");

const DEMO_ACTOR = "bcsk_acmeadmin";

export async function seedDemoJoinRequests(db: Db, now: Date = new Date()): Promise<number> {
  let created = 0;
  for (const demo of DEMO_JOIN_REQUESTS) {
    const csrSha256 = demoCsrSha256(demo.key);
    if (await db.joinRequest.findFirst({ where: { csrSha256 }, select: { id: true } })) continue;
    const askedAt = new Date(now.getTime() - demo.ageMinutes * 60_000);
    const request = await createJoinRequest({
      db,
      tenantId: demo.tenantId,
      siteId: demo.siteId,
      poolId: demo.poolId,
      reasons: demo.reasons,
      machine: demo.machine,
      csrSha256,
      credential: demo.poolId ? { joinTokenId: tokenIdFor(demo.poolId) } : { enrollKeyId: enrollKeyIdFor(demo.siteId) },
      actor: demo.machine.hostname,
      now: askedAt,
    });
    await decide(db, demo, request.id, askedAt);
    created++;
  }
  return created;
}

const tokenIdFor = (poolId: string) => DEMO_JOIN_TOKENS.find((token) => token.poolId === poolId)!.id;
const enrollKeyIdFor = (siteId: string) => DEMO_ENROLLMENT_KEYS.find((key) => key.siteId === siteId)!.id;

async function decide(db: Db, demo: DemoRequest, requestId: string, askedAt: Date) {
  if (demo.outcome === "pending" || demo.outcome === "expired") return; // expired: its 24 h passed
  const pool = await findPool(db, demo.tenantId, demo.poolId!);
  const decidedAt = new Date(askedAt.getTime() + 2 * 60_000);
  if (demo.outcome === "rejected") {
    await rejectJoinRequest({ db, pool, requestId, reason: "hardware not expected at this site", actor: DEMO_ACTOR, now: decidedAt });
    return;
  }
  await approveJoinRequest({ db, pool, requestId, ttlSeconds: 4 * 3600, reason: "racked by ops, ticket OPS-1042", actor: DEMO_ACTOR, now: decidedAt });
  if (demo.outcome === "consumed") {
    await consumeApproval({ db, pool, requestId, actor: demo.machine.hostname, now: new Date(decidedAt.getTime() + 60_000) });
  }
}
