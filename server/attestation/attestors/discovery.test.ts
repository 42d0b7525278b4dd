import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { discoveryAttestor, discoveryMatchSql } from "./discovery";
import type { AttestationSubject } from "./attestor";

// The discovery attestor against a site inventory of 20,000 entries in the
// test database: it finds a machine by its UUID (any case) and one of its
// MACs, never by a MAC alone (SPEC G3), and its statement reaches the entry
// through the site's UUID key, never by scanning the inventory (that was
// 26 ms a join at 50k entries).

const ENTRIES = 20_000;
const suffix = randomBytes(4).toString("hex");
const tenantId = "acme";
const siteId = `disc-site-${suffix}`;
const db = await getDb();
const known = { uuid: randomUUID(), mac: "02:dd:00:00:00:01" };

beforeAll(async () => {
  await db.$executeRaw`INSERT INTO sites (id, tenant_id, name) VALUES (${siteId}, ${tenantId}, ${siteId})`;
  await db.$executeRaw`
    INSERT INTO discovered_machines (id, tenant_id, site_id, system_uuid, mac_addresses)
    SELECT ${`disc_${suffix}_`} || n, ${tenantId}, ${siteId}, gen_random_uuid()::text, ARRAY['02:ee:' || lpad(to_hex(n), 8, '0')]
    FROM generate_series(1, ${ENTRIES}) AS n`;
  await db.$executeRaw`
    INSERT INTO discovered_machines (id, tenant_id, site_id, system_uuid, mac_addresses)
    VALUES (${`disc_${suffix}_known`}, ${tenantId}, ${siteId}, ${known.uuid}, ARRAY[${known.mac}])`;
  await db.$executeRaw`ANALYZE discovered_machines`;
});

afterAll(async () => {
  await db.$executeRaw`DELETE FROM discovered_machines WHERE site_id = ${siteId}`;
  await db.$executeRaw`DELETE FROM sites WHERE id = ${siteId}`;
});

const subject = (machine: Partial<AttestationSubject["machine"]>): AttestationSubject => ({
  tenantId,
  siteId,
  pool: null,
  credential: "join-token",
  machine: { hostname: "m.test", systemUuid: randomUUID(), serialNumber: "SN-1", macAddresses: [], tpmEkSha256: null, ...machine },
  tpmProof: { akName: null, proven: false },
});

describe("discovery attestor", () => {
  it("knows a machine by its UUID in any case with one of its MACs; a MAC alone, or the UUID without its MACs, is unknown", async () => {
    const macs = ["02:aa:00:00:00:09", known.mac];
    expect(await discoveryAttestor.attest(db, subject({ systemUuid: known.uuid, macAddresses: macs }))).toEqual({});
    expect(await discoveryAttestor.attest(db, subject({ systemUuid: ` ${known.uuid.toUpperCase()} `, macAddresses: macs }))).toEqual({});
    const unknown = { defer: "unknown-to-discovery" };
    expect(await discoveryAttestor.attest(db, subject({ macAddresses: macs }))).toEqual(unknown);
    expect(await discoveryAttestor.attest(db, subject({ systemUuid: known.uuid, macAddresses: ["02:aa:00:00:00:09"] }))).toEqual(unknown);
    expect(await discoveryAttestor.attest(db, subject({ systemUuid: "00000000-0000-0000-0000-000000000000", macAddresses: macs }))).toEqual(
      unknown,
    );
  });

  it("stores UUIDs lowercase: an upper-case entry is refused by the database", async () => {
    await expect(
      db.$executeRaw`INSERT INTO discovered_machines (id, tenant_id, site_id, system_uuid, mac_addresses)
        VALUES (${`disc_${suffix}_upper`}, ${tenantId}, ${siteId}, ${randomUUID().toUpperCase()}, ARRAY[${known.mac}])`,
    ).rejects.toThrow(/discovered_machines_system_uuid_lowercase/);
  });

  it("reaches the entry through the site's UUID key, not a scan of the inventory", async () => {
    const sql = discoveryMatchSql({ tenantId, siteId, uuidKey: known.uuid, macs: ["02:aa:00:00:00:09"] });
    const [row] = await db.$queryRawUnsafe<{ "QUERY PLAN": unknown }[]>(`EXPLAIN (FORMAT JSON) ${sql.text}`, ...sql.values);
    const plan = JSON.stringify(row!["QUERY PLAN"]);
    expect(plan).not.toContain("Seq Scan");
    expect(plan).toContain("discovered_machines_site_id_system_uuid_key");
  });
});
