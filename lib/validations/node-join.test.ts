import { describe, expect, it } from "vitest";
import { parseInput } from "./parse-input";
import { joinNodeInput } from "./node-join";

const csr = "-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----\n";
const valid = {
  csr,
  hostname: "node-001.fra1.acme.test",
  hardware: { systemUuid: "4c4c4544-0042-4d10-8052-b4c04f424a31", serialNumber: "SN-1", macAddresses: ["3C:EC:EF:10:01:01"] },
  tpm: null,
};
const fieldsOf = (body: unknown) => {
  const parsed = parseInput(joinNodeInput, body);
  return parsed.ok ? [] : parsed.violations.map((violation) => violation.field);
};

describe("joinNodeInput", () => {
  it("accepts a join, lowercasing and de-duplicating MACs", () => {
    const parsed = joinNodeInput.parse({
      ...valid,
      hardware: { ...valid.hardware, macAddresses: ["AA:BB:CC:DD:EE:FF", "aa:bb:cc:dd:ee:ff"] },
    });
    expect(parsed.hardware.macAddresses).toEqual(["aa:bb:cc:dd:ee:ff"]);
    expect(parsed.tpm).toBeUndefined();
  });

  it.each(["", " ", "To Be Filled By O.E.M.", "Ünïcode serial"])("keeps serial %j as reported, for the attestor", (serialNumber) => {
    expect(joinNodeInput.parse({ ...valid, hardware: { ...valid.hardware, serialNumber } }).hardware.serialNumber).toBe(serialNumber);
  });

  it.each(["a", "a-b.c", "x".repeat(63), `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}`])(
    "accepts hostname %s",
    (hostname) => expect(fieldsOf({ ...valid, hostname })).toEqual([]),
  );

  it.each([
    "",
    "-a",
    "a-",
    "a..b",
    "a.",
    "a_b",
    "é.test",
    "x".repeat(64),
    `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(62)}`,
  ])("refuses hostname %j", (hostname) => expect(fieldsOf({ ...valid, hostname })).toEqual(["hostname"]));

  it("limits MACs to 32 and identifiers to 128 code points", () => {
    const macs = Array.from({ length: 33 }, (_, i) => `02:00:00:00:00:${i.toString(16).padStart(2, "0")}`);
    expect(fieldsOf({ ...valid, hardware: { ...valid.hardware, macAddresses: macs } })).toEqual(["hardware.macAddresses"]);
    expect(fieldsOf({ ...valid, hardware: { ...valid.hardware, serialNumber: "😀".repeat(128) } })).toEqual([]);
    expect(fieldsOf({ ...valid, hardware: { ...valid.hardware, systemUuid: "😀".repeat(129) } })).toEqual(["hardware.systemUuid"]);
  });

  it("refuses a CSR over 16 KiB or without PEM armour", () => {
    expect(fieldsOf({ ...valid, csr: csr + "A".repeat(16 * 1024) })).toEqual(["csr"]);
    expect(fieldsOf({ ...valid, csr: "MIIB" })).toEqual(["csr"]);
  });

  it("refuses unknown fields at every level and wrong types", () => {
    expect(fieldsOf({ ...valid, pool: "gpu-a" })).toEqual(["pool"]);
    expect(fieldsOf({ ...valid, hardware: { ...valid.hardware, bios: "x" } })).toEqual(["bios"]);
    expect(fieldsOf({ ...valid, tpm: { ekPublicKey: 5 } })).toEqual(["tpm.ekPublicKey"]);
    expect(fieldsOf({ ...valid, hardware: null })).toEqual(["hardware"]);
  });
});
