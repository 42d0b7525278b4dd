// The demo users the browser tests sign in as (SPEC Part C; owner is Part E's tenant-admin).
export const E2E_ROLES = [
  { name: "admin", email: "admin@acme.test", storageState: "e2e/.auth/admin.json" },
  { name: "viewer", email: "viewer@acme.test", storageState: "e2e/.auth/viewer.json" },
  { name: "gpu-a-admin", email: "gpu-a-admin@acme.test", storageState: "e2e/.auth/gpu-a-admin.json" },
  { name: "globex-admin", email: "admin@globex.test", storageState: "e2e/.auth/globex-admin.json" },
  { name: "owner", email: "owner@acme.test", storageState: "e2e/.auth/owner.json" },
] as const;

export type E2ERole = (typeof E2E_ROLES)[number]["name"];
