import { describe, expect, it } from "vitest";
import { grantAllows, grantAllowsTenantWide, grantPermissions, mayDecide, roleFromName, roleName, type Grant } from "./roles";

// SPEC B4, E2: what each role holds, on one pool and tenant-wide.
const grant = (role: Grant["role"], poolId: string | null = null): Grant => ({ tenantId: "t", poolId, role });

describe("roles", () => {
  it("pool roles: viewer reads, admin also decides; tenant-admin holds pool-admin's on every pool", () => {
    expect(grantAllows(grant("pool_viewer"), "compute:join-tokens:read", "t", "p")).toBe(true);
    expect(grantAllows(grant("pool_viewer"), "compute:join-tokens:create", "t", "p")).toBe(false);
    expect(grantAllows(grant("pool_admin", "p"), "compute:join-tokens:create", "t", "p")).toBe(true);
    expect(grantAllows(grant("pool_admin", "p"), "compute:join-tokens:create", "t", "q")).toBe(false);
    for (const permission of ["compute:join-tokens:read", "compute:join-tokens:create"] as const) {
      expect(grantAllows(grant("tenant_admin"), permission, "t", "any-pool")).toBe(true);
      expect(grantAllows(grant("tenant_admin"), permission, "other-tenant", "any-pool")).toBe(false);
    }
  });

  it("mayDecide (who hears of a pool's requests): pool-admin on the pool or tenant-wide, or tenant-admin; never a viewer", () => {
    expect(mayDecide([grant("pool_admin", "p")], "t", "p")).toBe(true);
    expect(mayDecide([grant("pool_admin", "p")], "t", "q")).toBe(false);
    expect(mayDecide([grant("pool_admin")], "t", "q")).toBe(true);
    expect(mayDecide([grant("tenant_admin")], "t", "q")).toBe(true);
    expect(mayDecide([grant("pool_viewer"), grant("pool_viewer", "p")], "t", "p")).toBe(false);
    expect(mayDecide([grant("tenant_admin")], "u", "p")).toBe(false);
    expect(mayDecide([], "t", "p")).toBe(false);
  });

  it("attestation: tenant-wide viewer and admin read it, tenant-admin also manages it; pool-scoped grants reach neither", () => {
    expect(grantAllowsTenantWide(grant("pool_viewer"), "compute:attestation:read", "t")).toBe(true);
    expect(grantAllowsTenantWide(grant("pool_admin"), "compute:attestation:read", "t")).toBe(true);
    expect(grantAllowsTenantWide(grant("pool_admin"), "compute:attestation:manage", "t")).toBe(false);
    expect(grantAllowsTenantWide(grant("tenant_admin"), "compute:attestation:manage", "t")).toBe(true);
    expect(grantAllowsTenantWide(grant("tenant_admin"), "compute:attestation:manage", "u")).toBe(false);
    expect(grantAllowsTenantWide(grant("pool_admin", "p"), "compute:attestation:read", "t")).toBe(false);
    expect(grantPermissions(grant("pool_admin", "p"))).not.toContain("compute:attestation:read");
    expect(grantAllows(grant("tenant_admin"), "compute:attestation:manage", "t", "p")).toBe(false); // not a pool permission
  });

  it("nodes (D1): viewers read them, admins also revoke; on their pool, or every pool of the tenant", () => {
    expect(grantAllows(grant("pool_viewer", "p"), "compute:nodes:read", "t", "p")).toBe(true);
    expect(grantAllows(grant("pool_viewer", "p"), "compute:nodes:revoke", "t", "p")).toBe(false);
    expect(grantAllows(grant("pool_viewer", "p"), "compute:nodes:read", "t", "q")).toBe(false);
    expect(grantAllows(grant("pool_admin", "p"), "compute:nodes:revoke", "t", "p")).toBe(true);
    expect(grantAllows(grant("pool_admin"), "compute:nodes:revoke", "t", "any-pool")).toBe(true);
    expect(grantAllows(grant("tenant_admin"), "compute:nodes:revoke", "t", "any-pool")).toBe(true);
    expect(grantAllows(grant("tenant_admin"), "compute:nodes:read", "u", "any-pool")).toBe(false);
  });

  it("approval rules (H2): pool-admin (on its pool) and tenant-admin manage them; a viewer does not", () => {
    expect(grantAllows(grant("pool_admin", "p"), "compute:approval-rules:manage", "t", "p")).toBe(true);
    expect(grantAllows(grant("pool_admin", "p"), "compute:approval-rules:manage", "t", "q")).toBe(false);
    expect(grantAllows(grant("tenant_admin"), "compute:approval-rules:manage", "t", "any-pool")).toBe(true);
    expect(grantAllows(grant("pool_viewer"), "compute:approval-rules:manage", "t", "p")).toBe(false);
  });

  it("spells roles as operators do and as they are stored", () => {
    expect(roleFromName("tenant-admin")).toBe("tenant_admin");
    expect(roleName("pool_viewer")).toBe("pool-viewer");
  });
});
