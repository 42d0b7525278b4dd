import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CaKeyConfigurationError, decryptSecret, encryptSecret, parseEncryptionKey, resolveKey } from "./ca-key-encryption";

const dir = await mkdtemp(path.join(tmpdir(), "bc-ca-key-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("parseEncryptionKey", () => {
  it("reads 64 hex digits or base64 of 32 bytes", () => {
    const key = randomBytes(32);
    expect(parseEncryptionKey(key.toString("hex"))).toEqual(key);
    expect(parseEncryptionKey(key.toString("base64"))).toEqual(key);
    expect(parseEncryptionKey(` ${key.toString("base64url")}\n`)).toEqual(key);
  });
  it.each(["", "short", randomBytes(16).toString("hex"), randomBytes(31).toString("base64"), "é".repeat(44)])(
    "refuses %j with a message naming the variable",
    (value) => {
      expect(() => parseEncryptionKey(value)).toThrowError(/BC_CA_KEY_ENCRYPTION_KEY must be 32 bytes/);
    },
  );
});

describe("resolveKey", () => {
  it("uses the configured key", async () => {
    const key = randomBytes(32);
    expect(await resolveKey(key.toString("hex"), { kind: "postgres", url: "postgresql://x" })).toEqual(key);
  });
  it("refuses to go on without one on PostgreSQL, saying what to set", async () => {
    const error = await resolveKey(undefined, { kind: "postgres", url: "postgresql://x" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CaKeyConfigurationError);
    expect(String(error)).toMatch(/BC_CA_KEY_ENCRYPTION_KEY is not set/);
  });
  it("makes a development key once next to the embedded database's data (mode 0600), then reads it", async () => {
    const target = { kind: "pglite" as const, dir: path.join(dir, "pglite") };
    const first = await resolveKey(undefined, target);
    const second = await resolveKey(undefined, target);
    expect(second).toEqual(first);
    const file = path.join(dir, "dev-ca-key");
    expect(parseEncryptionKey(await readFile(file, "utf8"))).toEqual(first);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});

describe("encryptSecret / decryptSecret", () => {
  const key = randomBytes(32);
  it("round-trips, with a fresh nonce each time", () => {
    const plaintext = randomBytes(100);
    const a = encryptSecret(key, plaintext, "acme");
    const b = encryptSecret(key, plaintext, "acme");
    expect(Buffer.from(a)).not.toEqual(Buffer.from(b));
    expect(decryptSecret(key, a, "acme")).toEqual(plaintext);
  });
  it("refuses another key, another tenant, or a changed byte", () => {
    const sealed = encryptSecret(key, randomBytes(10), "acme");
    expect(() => decryptSecret(randomBytes(32), sealed, "acme")).toThrow(CaKeyConfigurationError);
    expect(() => decryptSecret(key, sealed, "globex")).toThrow(CaKeyConfigurationError);
    const changed = Uint8Array.from(sealed);
    changed[14]! ^= 1;
    expect(() => decryptSecret(key, changed, "acme")).toThrow(CaKeyConfigurationError);
  });
});
