import { describe, expect, it } from "vitest";
import type { Db } from "../db/client";
import { tenantCa } from "./tenant-ca";

// The tenant CA's decoding is remembered between joins (bench: boot storm);
// the stored row is not: each call reads it, and other bytes decode afresh.

interface Row {
  tenantId: string;
  certificatePem: string;
  privateKeyEncrypted: Uint8Array;
}

function fakeDb() {
  const rows = new Map<string, Row>();
  let reads = 0;
  const db = {
    tenantCa: {
      findUnique: async ({ where }: { where: { tenantId: string } }) => {
        reads++;
        return rows.get(where.tenantId) ?? null;
      },
      createMany: async ({ data }: { data: Row[] }) => {
        for (const row of data) if (!rows.has(row.tenantId)) rows.set(row.tenantId, row);
      },
    },
  } as unknown as Db;
  return { db, rows, reads: () => reads };
}

describe("tenantCa", () => {
  it("reads the row on every call and decodes the same bytes once", async () => {
    const { db, reads } = fakeDb();
    const first = await tenantCa(db, "t-memo", new Date());
    const readsBefore = reads();
    const second = await tenantCa(db, "t-memo", new Date());
    expect(reads()).toBe(readsBefore + 1);
    expect(second.signingKey).toBe(first.signingKey);
    expect(second.certificatePem).toBe(first.certificatePem);
  });

  it("uses a CA replaced in the database at once (another instance's write)", async () => {
    const { db, rows } = fakeDb();
    const before = await tenantCa(db, "t-replaced", new Date());
    const other = fakeDb();
    await tenantCa(other.db, "t-replaced", new Date()); // a different CA for the same tenant
    rows.set("t-replaced", other.rows.get("t-replaced")!);
    const after = await tenantCa(db, "t-replaced", new Date());
    expect(after.certificatePem).not.toBe(before.certificatePem);
    expect(after.certificatePem).toBe(other.rows.get("t-replaced")!.certificatePem);
    expect(after.authorityKeyIdentifier.keyId).not.toBe(before.authorityKeyIdentifier.keyId);
  });
});
