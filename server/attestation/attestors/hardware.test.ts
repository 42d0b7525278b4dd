import { describe, expect, it } from "vitest";
import { hardwareAttestor, isPlaceholderHardwareId } from "./hardware";

describe("isPlaceholderHardwareId", () => {
  it.each([
    "00000000-0000-0000-0000-000000000000",
    "0",
    "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
    "ffff ffff",
    "03000200-0400-0500-0006-000700080009",
    "To Be Filled By O.E.M.",
    "TO BE FILLED BY O.E.M.",
    "Default string",
    "System Serial Number",
    "Not Specified",
    "0123456789",
    "",
    "   ",
    "\t",
    "None",
    "none",
    "N/A",
    " n/a ",
  ])("%j is a placeholder", (value) => {
    expect(isPlaceholderHardwareId(value)).toBe(true);
  });

  it.each([
    "4c4c4544-0042-4d10-8052-b4c04f424a31",
    "SN-ACME-4001",
    "0123456789A",
    "00000000-0000-0000-0000-000000000001",
    "Nonesuch",
    "F0F0",
  ])("%j is a real identifier", (value) => {
    expect(isPlaceholderHardwareId(value)).toBe(false);
  });
});

describe("hardwareAttestor", () => {
  const machine = {
    hostname: "n",
    systemUuid: "4c4c4544-0042-4d10-8052-b4c04f424a31",
    serialNumber: "SN-1",
    macAddresses: [],
    tpmEkSha256: null,
  };
  const subject = (overrides: object) => ({
    tenantId: "t",
    siteId: "s",
    pool: null,
    credential: "join-token" as const,
    machine: { ...machine, ...overrides },
    tpmProof: { akName: null, proven: false },
  });
  const attest = (overrides: object) => hardwareAttestor.attest(undefined as never, subject(overrides));

  it("defers a placeholder UUID or serial", async () => {
    expect(await attest({ systemUuid: "00000000-0000-0000-0000-000000000000" })).toEqual({ defer: "placeholder-hardware-id" });
    expect(await attest({ serialNumber: "Default string" })).toEqual({ defer: "placeholder-hardware-id" });
  });
  it("passes real identifiers", async () => {
    expect(await attest({})).toEqual({});
  });
});
