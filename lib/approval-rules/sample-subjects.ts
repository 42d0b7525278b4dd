import type { RuleSubject } from "./rule-variables";

// Subjects of the declared shape that a new expression is evaluated on when
// it is checked (compile-rule.ts): one known to discovery with a proven TPM
// through an enrollment key, one unknown with no TPM through a join token.

const at = "2026-01-01T00:00:00.000Z";

const request: RuleSubject["request"] = {
  id: "jreq_01jr0000000000000000000000",
  tenantId: "acme",
  siteId: "fra1",
  poolId: "gpu-b",
  state: "pending",
  reasons: ["tpm-ek-not-allowed"],
  machine: {
    hostname: "gpu-b-01.fra1.acme.test",
    systemUuid: "11111111-1111-4111-8111-111111111111",
    serialNumber: "SN-0001",
    macAddresses: ["02:00:00:00:00:01"],
    tpmEkSha256: "0".repeat(64),
    tpmEkProven: true,
  },
  csrSha256: "1".repeat(64),
  createdAt: at,
  expiresAt: at,
  decidedAt: null,
  decidedBy: null,
  reason: null,
  consumedAt: null,
  approvalsRequired: 1,
  approvals: [{ by: "usr_sample", at, ttlSeconds: 3600 }],
  ekCertificate: { issuer: "CN=swtpm-localca", serial: "01", failure: "unknown-issuer", detail: null },
  bootMeasurement: { pcrs: { "0": "0".repeat(64) }, bootState: "sample" },
};

export const SAMPLE_SUBJECTS: readonly RuleSubject[] = [
  {
    request,
    credential: { kind: "enrollment-key", id: "sample" },
    discovery: { systemUuid: request.machine.systemUuid, macAddresses: request.machine.macAddresses, assignedPoolId: "gpu-b" },
    now: new Date(at),
  },
  {
    request: {
      ...request,
      poolId: null,
      reasons: ["placeholder-hardware-id", "unknown-to-discovery"],
      machine: { ...request.machine, tpmEkSha256: null, tpmEkProven: false, macAddresses: [] },
      approvals: [],
      ekCertificate: null,
      bootMeasurement: null,
    },
    credential: { kind: "join-token", id: "sample" },
    discovery: null,
    now: new Date(at),
  },
];
