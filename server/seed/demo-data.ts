// SPEC Part C: the fixed demo data. For demos and tests only; tests elsewhere
// rely on these exact values.
import type { RoleName } from "@/lib/validations/admin";

export const DEMO_PASSWORD = "demo-password-123";

export const DEMO_TENANTS = [
  { id: "acme", name: "Acme Corp" },
  { id: "globex", name: "Globex" },
];

export const DEMO_SITES = [
  { id: "fra1", tenantId: "acme", name: "Frankfurt 1" },
  { id: "ams1", tenantId: "acme", name: "Amsterdam 1" },
  { id: "nyc1", tenantId: "globex", name: "New York 1" },
];

export const DEMO_POOLS = [
  { id: "gpu-a", tenantId: "acme", siteId: "fra1", name: "GPU A", requiresTpm: true, archived: false },
  { id: "gpu-b", tenantId: "acme", siteId: "fra1", name: "GPU B", requiresTpm: false, archived: false },
  { id: "legacy", tenantId: "acme", siteId: "fra1", name: "Legacy", requiresTpm: false, archived: true },
  { id: "cpu-x", tenantId: "acme", siteId: "ams1", name: "CPU X", requiresTpm: false, archived: false },
  { id: "globex-gpu", tenantId: "globex", siteId: "nyc1", name: "Globex GPU", requiresTpm: false, archived: false },
];

/** SPEC H1: a pool whose requests need two approvers (Part C's pools keep the default of 1). */
export const DEMO_QUORUM_POOL = {
  id: "gpu-c",
  tenantId: "acme",
  siteId: "fra1",
  name: "GPU C",
  requiresTpm: false,
  approvalsRequired: 2,
};

/**
 * SPEC I2's demo pool: TPM and a known boot required. Its one known state is
 * what the demo software TPM reports after the demo image extends PCR 7 once
 * with 32 bytes of 0xaa (its PCRs start at zero); a machine whose PCR 7 was
 * extended otherwise is deferred boot-state-unknown. A pool of its own, so
 * gpu-a (Part C, D4, the simulator) joins as before.
 */
export const DEMO_BOOT_POOL = {
  id: "gpu-d",
  tenantId: "acme",
  siteId: "fra1",
  name: "GPU D (measured boot)",
  requiresTpm: true,
};
export const DEMO_BOOT_IMAGE_BYTE = 0xaa;
export const DEMO_TAMPERED_IMAGE_BYTE = 0xbb;

interface DemoGrant {
  tenantId: string;
  poolId: string | null;
  role: RoleName;
}

export const DEMO_USERS: { email: string; name: string; grants: DemoGrant[] }[] = [
  { email: "admin@acme.test", name: "Acme Admin", grants: [{ tenantId: "acme", poolId: null, role: "pool-admin" }] },
  { email: "viewer@acme.test", name: "Acme Viewer", grants: [{ tenantId: "acme", poolId: null, role: "pool-viewer" }] },
  { email: "gpu-a-admin@acme.test", name: "GPU A Admin", grants: [{ tenantId: "acme", poolId: "gpu-a", role: "pool-admin" }] },
  { email: "admin@globex.test", name: "Globex Admin", grants: [{ tenantId: "globex", poolId: null, role: "pool-admin" }] },
  // SPEC Part E: the tenant-admin of acme
  { email: "owner@acme.test", name: "Acme Owner", grants: [{ tenantId: "acme", poolId: null, role: "tenant-admin" }] },
];

export const DEMO_SERVICE_KEYS: { id: string; secret: string; tenantId: string; name: string; grant: DemoGrant }[] = [
  {
    id: "acmeadmin",
    secret: "demo-acme-admin-secret",
    tenantId: "acme",
    name: "Acme admin (demo)",
    grant: { tenantId: "acme", poolId: null, role: "pool-admin" },
  },
  {
    id: "acmeviewer",
    secret: "demo-acme-viewer-secret",
    tenantId: "acme",
    name: "Acme viewer (demo)",
    grant: { tenantId: "acme", poolId: null, role: "pool-viewer" },
  },
  {
    id: "gpuaadmin",
    secret: "demo-gpu-a-admin-secret",
    tenantId: "acme",
    name: "GPU A admin (demo)",
    grant: { tenantId: "acme", poolId: "gpu-a", role: "pool-admin" },
  },
  {
    id: "globexadmin",
    secret: "demo-globex-admin-secret",
    tenantId: "globex",
    name: "Globex admin (demo)",
    grant: { tenantId: "globex", poolId: null, role: "pool-admin" },
  },
  {
    id: "acmeowner",
    secret: "demo-acme-owner-secret",
    tenantId: "acme",
    name: "Acme owner (demo)",
    grant: { tenantId: "acme", poolId: null, role: "tenant-admin" },
  },
];

export const DEMO_JOIN_TOKENS = [
  { id: "demogpua", secret: "demo-gpu-a-join-secret", tenantId: "acme", poolId: "gpu-a" },
  { id: "demogpub", secret: "demo-gpu-b-join-secret", tenantId: "acme", poolId: "gpu-b" },
  { id: "demolegacy", secret: "demo-legacy-join-secret", tenantId: "acme", poolId: "legacy" },
  { id: "democpux", secret: "demo-cpu-x-join-secret", tenantId: "acme", poolId: "cpu-x" },
  { id: "demoglobex", secret: "demo-globex-join-secret", tenantId: "globex", poolId: "globex-gpu" },
  { id: "demogpuc", secret: "demo-gpu-c-join-secret", tenantId: "acme", poolId: "gpu-c" },
  { id: "demogpud", secret: "demo-gpu-d-join-secret", tenantId: "acme", poolId: "gpu-d" },
];
export const DEMO_JOIN_TOKEN_MAX_USES = 1000;
export const DEMO_JOIN_TOKEN_TTL_MS = 10 * 365 * 24 * 60 * 60 * 1000;

export const DEMO_ENROLLMENT_KEYS = [
  { id: "demofra1", secret: "demo-fra1-enroll-secret", tenantId: "acme", siteId: "fra1" },
  { id: "demoams1", secret: "demo-ams1-enroll-secret", tenantId: "acme", siteId: "ams1" },
];

/** acme/fra1 knows …111 to …119; …118 and …119 are assigned to gpu-b. */
export const DEMO_DISCOVERED_MACHINES = Array.from({ length: 9 }, (_, index) => {
  const n = index + 1;
  return {
    tenantId: "acme",
    siteId: "fra1",
    systemUuid: `11111111-1111-4111-8111-11111111111${n}`,
    macAddresses: [`52:54:00:11:11:1${n}`],
    assignedPoolId: n >= 8 ? "gpu-b" : null,
  };
});

export const DEMO_TPM_ALLOWED_KEYS = [
  {
    tenantId: "acme",
    ekSha256: "15426fb055f5461484bf419f7e67ba400ddfc2b54d90981cb9f65f6ffc228af1",
    note: "fixtures/tpm-ek-allowed.pem (a copy of shared/fixtures/tpm-ek-allowed.pem)",
  },
  {
    tenantId: "acme",
    ekSha256: "23ecae7f12443c728490c84f0a0c06ce53314bb6fe6053c0a1b819cf4a7fd68e",
    note: "fixtures/tpm-ek-demo.pem: the demo software TPM's EK (SPEC F5; its private half is published)",
  },
];
