import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { changedSections, sectionsSha256 } from "./sections-digest";

describe("sectionsSha256 (RFC 8785 + SHA-256)", () => {
  it("key order and number spelling do not change the digest; any value does", () => {
    const a = { cpu: { cores: 64, model: "EPYC" }, memory: { totalBytes: 1e12 } };
    const b = { memory: { totalBytes: 1000000000000 }, cpu: { model: "EPYC", cores: 64 } };
    expect(sectionsSha256(a)).toBe(sectionsSha256(b));
    expect(sectionsSha256(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(sectionsSha256({ ...a, memory: { totalBytes: 1e12 + 1 } })).not.toBe(sectionsSha256(a));
    // array order is content
    expect(sectionsSha256({ gpus: [{ index: 0 }, { index: 1 }] })).not.toBe(sectionsSha256({ gpus: [{ index: 1 }, { index: 0 }] }));
  });

  it("is the SHA-256 of RFC 8785's canonical text (sorted keys, no whitespace, shortest numbers)", () => {
    const canonicalText = '{"a":1,"b":[true,null],"c":{"d":0.5,"e":"é"}}'; // é as itself: RFC 8785 escapes only what JSON must
    expect(sectionsSha256({ c: { e: "é", d: 5e-1 }, b: [true, null], a: 1.0 })).toBe(sha256(canonicalText));
  });
});

describe("changedSections", () => {
  it("the first snapshot: every name, sorted", () => {
    expect(changedSections(null, { os: {}, cpu: {} })).toEqual(["cpu", "os"]);
  });
  it("added, removed and changed names; unchanged ones (keys in another order) are not", () => {
    const previous = { cpu: { model: "x", cores: 1 }, gpus: [{ index: 0 }], os: { name: "Ubuntu" } };
    const next = { cpu: { cores: 1, model: "x" }, gpus: [{ index: 0, driverVersion: "550" }], disks: [] };
    expect(changedSections(previous, next)).toEqual(["disks", "gpus", "os"]);
  });
});

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
