import { createPrivateKey, generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { SignJWT, UnsecuredJWT } from "jose";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { getDb } from "@/server/db/client";
import { x509 } from "@/server/pki/x509";
import { makeKeyAndCsr } from "@/server/pki/make-csr";
import { signNodeToken } from "@/lib/node-credential/sign-node-token";
import { callMethod, expectError } from "@/test/api/api-client";
import { createJoinWorld, type JoinWorld } from "@/test/api/machine";
import { admitNode, callAsNode, type TestNode } from "@/test/api/node";

// SPEC D2 over HTTP: the daemon speaks as its node with a JWT signed by its
// certificate's key; every failure is the same 401 body. nodes/renew rotates
// the certificate, the previous one counting until its notAfter.
let world: JoinWorld;
let node: TestNode;

beforeAll(async () => {
  world = await createJoinWorld();
  node = await admitNode(world);
});

const REPORT = "inventory/report";
const sections = { os: { name: "Ubuntu", version: "22.04.4 LTS", kernel: "5.15.0-105-generic", arch: "x86_64" } };
const report = (as: Pick<TestNode, "nodeId" | "privateKeyPem">, token?: string) => callAsNode(REPORT, { sections }, as, { token });
const nodeRow = async (nodeId: string) => (await getDb()).node.findUniqueOrThrow({ where: { id: nodeId } });
const seconds = () => Math.floor(Date.now() / 1000);
const signed = (claims: { iat: number; exp: number; aud?: string; sub?: string }, as: TestNode = node) =>
  new SignJWT({})
    .setProtectedHeader({ alg: "ES256", kid: as.nodeId })
    .setSubject(claims.sub ?? as.nodeId)
    .setAudience(claims.aud ?? `/api/compute/${REPORT}`)
    .setIssuedAt(claims.iat)
    .setExpirationTime(claims.exp)
    .sign(createPrivateKey(as.privateKeyPem));

describe("the node credential (D2)", () => {
  it("a valid JWT is accepted, and lastSeenAt moves at most once a minute", async () => {
    const first = await report(node);
    expect(first.status).toBe(200);
    const seen = (await nodeRow(node.nodeId)).lastSeenAt;
    expect(seen).not.toBeNull();
    expect(Date.now() - seen!.getTime()).toBeLessThan(60_000);
    expect((await report(node)).status).toBe(200);
    expect((await nodeRow(node.nodeId)).lastSeenAt).toEqual(seen);
    const published = await callMethod("nodes/get", { tenantId: world.tenantId, nodeId: node.nodeId }, { bearer: world.keys.admin });
    expect(published.body.lastSeenAt).toBe(seen!.toISOString());
  });

  it("a call when lastSeenAt is a minute old or more moves it to the call's time (the five-minute daemon's every report)", async () => {
    const db = await getDb();
    const earlier = new Date(Date.now() - 5 * 60_000);
    await db.node.update({ where: { id: node.nodeId }, data: { lastSeenAt: earlier } });
    const before = Date.now();
    expect((await report(node)).status).toBe(200);
    const moved = (await nodeRow(node.nodeId)).lastSeenAt!;
    expect(moved.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(moved.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("wrong key, expired, exp > 300 s after iat, wrong aud, wrong sub, unknown kid, alg none, no token: one 401 body", async () => {
    const stranger = await admitNode(world);
    const now = seconds();
    const { privateKey: rsa } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const tokens: Record<string, string> = {
      "another node's key": await signNodeToken({ privateKeyPem: stranger.privateKeyPem, nodeId: node.nodeId, method: REPORT }),
      "expired beyond the skew": await signed({ iat: now - 600, exp: now - 120 }),
      "exp more than 300 s after iat": await signed({ iat: now, exp: now + 301 }),
      "iat in the future beyond the skew": await signed({ iat: now + 600, exp: now + 700 }),
      "another method's audience": await signNodeToken({ privateKeyPem: node.privateKeyPem, nodeId: node.nodeId, method: "nodes/renew" }),
      "another subject": await signed({ iat: now, exp: now + 60, sub: stranger.nodeId }),
      "an unknown kid": await signNodeToken({
        privateKeyPem: node.privateKeyPem,
        nodeId: "node_01jz0000000000000000000000",
        method: REPORT,
      }),
      "alg none": new UnsecuredJWT({})
        .setSubject(node.nodeId)
        .setAudience(`/api/compute/${REPORT}`)
        .setIssuedAt(now)
        .setExpirationTime(now + 60)
        .encode(),
      "RS256 by a key that is not the node's": await new SignJWT({})
        .setProtectedHeader({ alg: "RS256", kid: node.nodeId })
        .setSubject(node.nodeId)
        .setAudience(`/api/compute/${REPORT}`)
        .setIssuedAt(now)
        .setExpirationTime(now + 60)
        .sign(rsa),
      "not a JWT": "bcjt_abc.def",
    };
    const bodies = new Set<string>();
    for (const [name, token] of Object.entries(tokens)) {
      const response = await report(node, token);
      expect(response.status, name).toBe(401);
      expect(response.body.error.code, name).toBe("UNAUTHENTICATED");
      bodies.add(JSON.stringify(response.body));
    }
    const none = await callMethod(REPORT, { sections }, { bearer: null });
    bodies.add(JSON.stringify(none.body));
    expect([...bodies]).toEqual([JSON.stringify({ error: { code: "UNAUTHENTICATED", message: "the node credential is not valid" } })]);
  });

  it("within the ±60 s skew: a token issued 30 s ahead, or expired 30 s ago, is accepted", async () => {
    const now = seconds();
    expect((await report(node, await signed({ iat: now + 30, exp: now + 90 }))).status).toBe(200);
    expect((await report(node, await signed({ iat: now - 120, exp: now - 30 }))).status).toBe(200);
  });

  it("a revoked node and a node whose certificate expired: the same 401", async () => {
    const revoked = await admitNode(world);
    await callMethod("nodes/revoke", { tenantId: world.tenantId, nodeId: revoked.nodeId }, { bearer: world.keys.admin });
    expectError(await report(revoked), 401, "UNAUTHENTICATED");
    expectError(await callAsNode("nodes/renew", { csr: (await makeKeyAndCsr("x.test")).csrPem }, revoked), 401, "UNAUTHENTICATED");

    const lapsed = await admitNode(world);
    await (await getDb()).nodeCertificate.updateMany({ where: { nodeId: lapsed.nodeId }, data: { notAfter: new Date(Date.now() - 1000) } });
    const response = await report(lapsed);
    expectError(response, 401, "UNAUTHENTICATED");
    expect(response.body.error.message).toBe("the node credential is not valid");
  });
});

describe("nodes/renew (D1)", () => {
  it("a new key gets a new certificate for the node's hostname; the new key and the previous one both verify", async () => {
    const renewing = await admitNode(world);
    const next = await makeKeyAndCsr("whatever-the-csr-says.test");
    const response = await callAsNode("nodes/renew", { csr: next.csrPem }, renewing);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["caCertificate", "certificate", "nodeId"]);
    const certificate = new x509.X509Certificate(response.body.certificate);
    expect(certificate.subject).toBe(`CN=${renewing.machine.hostname}`);
    expect(Buffer.from(certificate.publicKey.rawData)).toEqual(
      Buffer.from(new x509.Pkcs10CertificateRequest(next.csrPem).publicKey.rawData),
    );
    const ca = new x509.X509Certificate(response.body.caCertificate);
    expect(await certificate.verify({ publicKey: ca.publicKey, signatureOnly: true })).toBe(true);

    const published = await callMethod("nodes/get", { tenantId: world.tenantId, nodeId: renewing.nodeId }, { bearer: world.keys.admin });
    expect(published.body.certificate.serialNumber).toBe(certificate.serialNumber);
    expect(published.body.certificate.notAfter).toBe(certificate.notAfter.toISOString());

    const renewed = { ...renewing, privateKeyPem: next.privateKeyPem };
    expect((await report(renewed)).status).toBe(200);
    expect((await report(renewing)).status).toBe(200); // the previous certificate, until its notAfter

    // once the previous certificate's notAfter passes, its key stops verifying
    const db = await getDb();
    const previousSerial = new x509.X509Certificate(renewing.certificatePem).serialNumber;
    await db.nodeCertificate.updateMany({
      where: { nodeId: renewing.nodeId, serial: previousSerial },
      data: { notAfter: new Date(Date.now() - 1000) },
    });
    expectError(await report(renewing), 401, "UNAUTHENTICATED");
    expect((await report(renewed)).status).toBe(200);
  });

  it("only the current and the previous certificate count: two renewals later the first key is refused", async () => {
    const renewing = await admitNode(world);
    const second = await makeKeyAndCsr("a.test");
    const third = await makeKeyAndCsr("b.test");
    expect((await callAsNode("nodes/renew", { csr: second.csrPem }, renewing)).status).toBe(200);
    expect((await callAsNode("nodes/renew", { csr: third.csrPem }, { ...renewing, privateKeyPem: second.privateKeyPem })).status).toBe(200);
    expectError(await report(renewing), 401, "UNAUTHENTICATED");
    expect((await report({ ...renewing, privateKeyPem: second.privateKeyPem })).status).toBe(200);
    expect((await report({ ...renewing, privateKeyPem: third.privateKeyPem })).status).toBe(200);
    expect(await (await getDb()).nodeCertificate.count({ where: { nodeId: renewing.nodeId } })).toBe(2);
  });

  it("a CSR that does not verify, or is not a CSR, is INVALID_ARGUMENT naming csr, and nothing changes", async () => {
    const renewing = await admitNode(world);
    const before = await nodeRow(renewing.nodeId);
    const garbage = await callAsNode(
      "nodes/renew",
      { csr: "-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----" },
      renewing,
    );
    expectError(garbage, 400, "INVALID_ARGUMENT");
    expect(garbage.body.error.message).toMatch(/^csr /);
    expectError(await callAsNode("nodes/renew", {}, renewing), 400, "INVALID_ARGUMENT");
    expect((await nodeRow(renewing.nodeId)).certSerial).toBe(before.certSerial);
  });

  it("a weak key is refused as at the join (SPEC F4): RSA-1024 is INVALID_ARGUMENT naming csr, nothing changes", async () => {
    const renewing = await admitNode(world);
    const before = await nodeRow(renewing.nodeId);
    const weak = readFileSync(new URL("../../fixtures/weak-csrs/rsa-1024-sha256.csr.pem", import.meta.url), "utf8");
    const response = await callAsNode("nodes/renew", { csr: weak }, renewing);
    expectError(response, 400, "INVALID_ARGUMENT");
    expect(response.body.error.message).toMatch(/^csr key is RSA-1024/);
    expect((await nodeRow(renewing.nodeId)).certSerial).toBe(before.certSerial);
  });
});

describe("renewal only moves forward (SPEC G6)", () => {
  const serialOf = (pem: string) => new x509.X509Certificate(pem).serialNumber;

  it("after renewing A → B, a renewal signed by A is 401 and changes nothing; A still reports; B renews", async () => {
    const a = await admitNode(world);
    const b = await makeKeyAndCsr("b.test");
    const toB = await callAsNode("nodes/renew", { csr: b.csrPem }, a);
    expect(toB.status).toBe(200);
    const afterB = await nodeRow(a.nodeId);
    expect(afterB.certSerial).toBe(serialOf(toB.body.certificate));

    const logFile = inject("serverLogFile");
    const start = (await stat(logFile)).size;
    const back = await callAsNode("nodes/renew", { csr: (await makeKeyAndCsr("a-again.test")).csrPem }, a);
    expectError(back, 401, "UNAUTHENTICATED");
    expect(back.body.error.message).toBe("the node credential is not valid");
    expect(await nodeRow(a.nodeId)).toMatchObject({ certSerial: afterB.certSerial, certSha256: afterB.certSha256 });
    expect(await (await getDb()).nodeCertificate.count({ where: { nodeId: a.nodeId } })).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the server writes its log asynchronously
    const refusals = (await readFile(logFile))
      .subarray(start)
      .toString("utf8")
      .split("\n")
      .filter((line) => line.includes("node credential refused"))
      .map((line) => JSON.parse(line));
    expect(refusals).toContainEqual(expect.objectContaining({ node: a.nodeId, cause: "superseded-certificate" }));

    expect((await report(a)).status).toBe(200); // the previous key, for every other call, until its notAfter
    const c = await makeKeyAndCsr("c.test");
    const toC = await callAsNode("nodes/renew", { csr: c.csrPem }, { ...a, privateKeyPem: b.privateKeyPem });
    expect(toC.status).toBe(200);
    expect((await nodeRow(a.nodeId)).certSerial).toBe(serialOf(toC.body.certificate));
  });

  it("two renewals signed by the newest key at once: one wins, the other is 401, and the winner's certificate is the newest", async () => {
    const a = await admitNode(world);
    const csrs = await Promise.all([makeKeyAndCsr("r1.test"), makeKeyAndCsr("r2.test")]);
    const answers = await Promise.all(csrs.map((keys) => callAsNode("nodes/renew", { csr: keys.csrPem }, a)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
    const winner = answers.find((answer) => answer.status === 200)!;
    expect((await nodeRow(a.nodeId)).certSerial).toBe(serialOf(winner.body.certificate));
    expect(await (await getDb()).nodeCertificate.count({ where: { nodeId: a.nodeId } })).toBe(2);
  });
});

describe("the log of a refusal (D2)", () => {
  it("names the cause and the node id, and never the token", async () => {
    // a node of its own: earlier tests' refusals of other nodes may reach the log late, after this test began
    const refused = await admitNode(world);
    const logFile = inject("serverLogFile");
    const start = (await stat(logFile)).size;
    const expired = await signed({ iat: seconds() - 600, exp: seconds() - 400 }, refused);
    const wrongAudience = await signed({ iat: seconds(), exp: seconds() + 60, aud: "/api/compute/nodes/renew" }, refused);
    expect((await report(refused, expired)).status).toBe(401);
    expect((await report(refused, wrongAudience)).status).toBe(401);
    // the server writes its log asynchronously (a loaded machine may take a while): read until both lines are there
    const refusals = async () =>
      (await readFile(logFile))
        .subarray(start)
        .toString("utf8")
        .split("\n")
        .filter((line) => line.includes("node credential refused") && line.includes(refused.nodeId));
    await expect.poll(async () => (await refusals()).length, { timeout: 10_000 }).toBe(2);
    const lines = await refusals();
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ node: refused.nodeId, cause: expect.any(String) });
    expect(new Set(lines.map((line) => JSON.parse(line).cause as string)).size).toBe(2);
    const text = lines.join("\n");
    for (const token of [expired, wrongAudience]) expect(text).not.toContain(token.split(".")[2]);
  });
});
