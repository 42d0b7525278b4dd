import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { tenantCa } from "./tenant-ca";

// The tenant CA's decoding is remembered between joins (bench: boot storm);
// the stored row is not: each call reads it, and other bytes decode afresh.
// On the test database (tenant_cas has no foreign key: any tenant id will do).

const tenantId = (label: string) => `t-${label}-${randomBytes(4).toString("hex")}`;

describe("tenantCa", () => {
  it("makes the tenant's CA on first need and decodes the same stored bytes once", async () => {
    const db = await getDb();
    const tenant = tenantId("memo");
    const first = await tenantCa(db, tenant, new Date());
    const stored = await db.tenantCa.findUniqueOrThrow({ where: { tenantId: tenant } });
    expect(stored.certificatePem).toBe(first.certificatePem);
    const second = await tenantCa(db, tenant, new Date());
    expect(second.signingKey).toBe(first.signingKey); // the decoding remembered, not redone
    expect(second.certificatePem).toBe(first.certificatePem);
  });

  it("uses a CA replaced in the database at once (another instance's write)", async () => {
    const db = await getDb();
    const tenant = tenantId("replaced");
    const before = await tenantCa(db, tenant, new Date());
    // another instance's CA for the same tenant: gone, then made afresh
    await db.tenantCa.delete({ where: { tenantId: tenant } });
    const replacement = await tenantCa(db, tenant, new Date());
    expect(replacement.certificatePem).not.toBe(before.certificatePem);
    const after = await tenantCa(db, tenant, new Date());
    expect(after.certificatePem).toBe(replacement.certificatePem);
    expect(after.authorityKeyIdentifier.keyId).not.toBe(before.authorityKeyIdentifier.keyId);
  });
});
