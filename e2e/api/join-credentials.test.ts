import { readFile, stat } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { subtle, x509 } from "@/server/pki/x509";
import { errorCode, type ApiResponse } from "@/test/api/api-client";
import { storedRequest } from "@/test/api/world";
import {
  ALLOWED_EK_PEM,
  createEnrollmentKeyRow,
  createJoinTokenRow,
  createJoinWorld,
  join,
  joinBody,
  makeMachine,
  type JoinWorld,
} from "@/test/api/machine";

// SPEC B5: who may join, and what a join body must be. Expired, used-up,
// revoked, unknown and wrong credentials all get one identical 401; the
// real cause is logged under the credential id, never with a secret.
let world: JoinWorld;
const responses: ApiResponse[] = [];
const secrets: string[] = [];
let logStart = 0; // the server log is appended to across runs: read only this file's part

const secretOf = (bearer: string) => bearer.split(".")[1]!;
async function recordedJoin(...args: Parameters<typeof join>) {
  const response = await join(...args);
  responses.push(response);
  return response;
}

beforeAll(async () => {
  logStart = (await stat(inject("serverLogFile")).catch(() => ({ size: 0 }))).size;
  world = await createJoinWorld();
});

describe("nodes/join credentials", () => {
  it("expired, exhausted, revoked, unknown and wrong-secret credentials get one identical 401", async () => {
    const { tenantId, siteId, pools } = world;
    const exhausted = await createJoinTokenRow(tenantId, pools.a, { maxUses: 2, uses: 2 });
    const bearers = {
      expiredToken: await createJoinTokenRow(tenantId, pools.a, { expiresAt: new Date(Date.now() - 1000) }),
      exhaustedToken: exhausted,
      revokedToken: await createJoinTokenRow(tenantId, pools.a, { revoked: true }),
      unknownToken: "bcjt_nosuchtoken.c2VjcmV0LXRoYXQtbWF0Y2hlcy1ub3RoaW5n",
      wrongSecretToken: `${world.tokens.a.split(".")[0]}.d3Jvbmctc2VjcmV0LWZvci1hLXJlYWwtdG9rZW4`,
      expiredSiteKey: await createEnrollmentKeyRow(tenantId, siteId, { expiresAt: new Date(Date.now() - 1000) }),
      revokedSiteKey: await createEnrollmentKeyRow(tenantId, siteId, { revoked: true }),
      unknownSiteKey: "bcse_nosuchkey.c2VjcmV0LXRoYXQtbWF0Y2hlcy1ub3RoaW5n",
    };
    secrets.push(...Object.values(bearers).map(secretOf), ...Object.values(world.tokens).map(secretOf), secretOf(world.siteKey));

    const bodies = new Set<string>();
    for (const [name, bearer] of Object.entries(bearers)) {
      const response = await recordedJoin(await makeMachine(), bearer);
      expect(response.status, name).toBe(401);
      expect(errorCode(response), name).toBe("UNAUTHENTICATED");
      bodies.add(response.text);
    }
    expect([...bodies]).toEqual([JSON.stringify({ error: { code: "UNAUTHENTICATED", message: "the join credential is not valid" } })]);

    // the right secrets work, in the same run whose log is checked below
    expect((await recordedJoin(await makeMachine(), world.tokens.a)).status).toBe(202);
    expect((await recordedJoin(await makeMachine(), world.siteKey)).status).toBe(202);
  });

  it.each([
    ["no Authorization header", null],
    ["a service key", "bcsk_acmeadmin.demo-acme-admin-secret"],
    ["a malformed bearer", "bcjt_Not-An-Id"],
  ])("%s → 401 UNAUTHENTICATED", async (_name, bearer) => {
    const response = await recordedJoin(await makeMachine(), bearer);
    expect(response.status).toBe(401);
    expect(errorCode(response)).toBe("UNAUTHENTICATED");
  });

  it("a token whose pool is gone answers like any invalid credential", async () => {
    const orphan = await createJoinTokenRow(world.tenantId, "no-such-pool");
    secrets.push(secretOf(orphan));
    expect((await recordedJoin(await makeMachine(), orphan)).status).toBe(401);
  });
});

describe("nodes/join body", () => {
  /** Two RSA CSRs for one hostname: the first's body with the second's signature (same length). */
  async function csrWithForeignSignature(): Promise<string> {
    const rsa = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256", publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
    const make = async () => {
      const keys = (await subtle.generateKey(rsa, true, ["sign", "verify"])) as CryptoKeyPair;
      const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: "CN=swapped.join.test", keys, signingAlgorithm: rsa });
      return new Uint8Array(csr.rawData);
    };
    const [mine, theirs] = [await make(), await make()];
    mine.set(theirs.subarray(theirs.length - 256), mine.length - 256); // a 2048-bit signature is the last 256 bytes
    return x509.PemConverter.encode(mine.buffer, "CERTIFICATE REQUEST");
  }

  async function csrWithTamperedSubject(): Promise<string> {
    const machine = await makeMachine({ hostname: "tamper-me.join.test" });
    const der = Buffer.from(new x509.Pkcs10CertificateRequest(machine.csr).rawData);
    const at = der.indexOf("tamper-me");
    der[at] = "x".charCodeAt(0);
    return x509.PemConverter.encode(new Uint8Array(der).buffer, "CERTIFICATE REQUEST");
  }

  it.each([
    ["not PEM", async () => "hello"],
    ["PEM armour around garbage", async () => "-----BEGIN CERTIFICATE REQUEST-----\nAAECAwQF\n-----END CERTIFICATE REQUEST-----\n"],
    ["a public key, not a request", async () => ALLOWED_EK_PEM],
    ["a tampered subject", csrWithTamperedSubject],
    ["another key's signature", csrWithForeignSignature],
  ])("a CSR that is %s → 400 INVALID_ARGUMENT naming csr", async (_name, makeCsr) => {
    const machine = await makeMachine();
    const response = await recordedJoin({ ...joinBody(machine), csr: await makeCsr() }, world.tokens.a);
    expect(response.status).toBe(400);
    expect(errorCode(response)).toBe("INVALID_ARGUMENT");
    expect(response.body.error.details[0].field).toBe("csr");
  });

  const invalid: [string, (body: Record<string, any>) => void, string][] = [
    ["hostname with an underscore", (b) => (b.hostname = "bad_host.test"), "hostname"],
    ["hostname label over 63", (b) => (b.hostname = `${"a".repeat(64)}.test`), "hostname"],
    ["hostname over 253", (b) => (b.hostname = Array.from({ length: 64 }, () => "abc").join(".")), "hostname"],
    ["hostname with a trailing hyphen label", (b) => (b.hostname = "node-.test"), "hostname"],
    ["a MAC that is not one", (b) => (b.hardware.macAddresses = ["aa:bb:cc:dd:ee"]), "hardware.macAddresses.0"],
    [
      "33 MACs",
      (b) => (b.hardware.macAddresses = Array.from({ length: 33 }, (_, i) => `02:00:00:00:00:${i.toString(16).padStart(2, "0")}`)),
      "hardware.macAddresses",
    ],
    ["a serial over 128", (b) => (b.hardware.serialNumber = "S".repeat(129)), "hardware.serialNumber"],
    ["a system UUID with a control character", (b) => (b.hardware.systemUuid = "abc\u0007"), "hardware.systemUuid"],
    ["a missing hardware", (b) => delete b.hardware, "hardware"],
    ["a CSR over 16 KiB", (b) => (b.csr = `-----BEGIN CERTIFICATE REQUEST-----\n${"A".repeat(16 * 1024)}`), "csr"],
    [
      "an EK that is not a public key",
      (b) => (b.tpm = { ekPublicKey: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----" }),
      "tpm.ekPublicKey",
    ],
    ["an unknown field", (b) => (b.extra = 1), "extra"],
  ];
  it.each(invalid)("%s → 400 INVALID_ARGUMENT naming %s", async (_name, mutate, field) => {
    const body = joinBody(await makeMachine()) as Record<string, any>;
    mutate(body);
    const response = await recordedJoin(body, world.tokens.a);
    expect(response.status).toBe(400);
    expect(errorCode(response)).toBe("INVALID_ARGUMENT");
    expect(response.body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
  });

  it("MACs are stored lowercase; an omitted tpm means none", async () => {
    const machine = await makeMachine({ macAddresses: ["3C:EC:EF:AA:BB:CC"] });
    const { tpm: _tpm, ...body } = joinBody(machine);
    const response = await recordedJoin(body, world.tokens.a);
    expect(response.status).toBe(202);
    const listed = await storedRequest(response.body.requestId);
    expect(listed.macAddresses).toEqual(["3c:ec:ef:aa:bb:cc"]);
    expect(listed.tpmEkSha256).toBeNull();
  });
});

afterAll(async () => {
  // No response and no server log line carries a credential secret.
  expect(secrets.length).toBeGreaterThan(5);
  const log = (await readFile(inject("serverLogFile"))).subarray(logStart).toString("utf8");
  for (const secret of secrets) {
    expect(log.includes(secret), `server log contains a secret`).toBe(false);
    for (const response of responses) expect(response.text.includes(secret)).toBe(false);
  }
  // ...while the causes are there, under the credential's id
  for (const cause of ["expired", "exhausted", "revoked", "unknown", "wrong-secret"]) {
    expect(log).toMatch(new RegExp(`"msg":"join credential refused".*"cause":"${cause}"`));
  }
});
