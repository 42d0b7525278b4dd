import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { callMethod } from "./support/api-client";
import { createJoinWorld, type JoinWorld } from "./support/machine";
import { createServiceKey } from "./support/world";

// npm run simulate drives the join as a daemon would; retry re-sends the saved CSR.
const run = promisify(execFile);
let world: JoinWorld;
let stateDir: string;

beforeAll(async () => {
  world = await createJoinWorld();
  stateDir = await mkdtemp(path.join(tmpdir(), "bc-simulator-"));
});
afterAll(() => rm(stateDir, { recursive: true, force: true }));

async function simulate(...args: string[]) {
  const { stdout } = await run("npx", ["tsx", "scripts/cli/simulate.ts", ...args, "--url", inject("baseUrl"), "--state-dir", stateDir])
    .catch((error: { stdout: string; stderr: string; code: number }) => ({ stdout: `${error.stdout}${error.stderr}\nexit ${error.code}` }));
  return stdout;
}

describe("npm run simulate", () => {
  it("unknown: a pending request; retry sends the same CSR and gets the same request; after approval, admitted", async () => {
    const first = await simulate("unknown", "--pool", world.pools.a, "--token", world.tokens.a);
    expect(first).toContain("HTTP 202");
    const requestId = /request (jreq_\w+)/.exec(first)![1]!;
    expect(first).toContain("reasons: unknown-to-discovery");
    expect((await stat(path.join(stateDir, "unknown", "key.pem"))).mode & 0o777).toBe(0o600);
    expect(await readFile(path.join(stateDir, "unknown", "csr.pem"), "utf8")).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----/);

    expect(await simulate("retry", "unknown", "--token", world.tokens.a)).toContain(`request ${requestId}`);
    await callMethod("joinRequests/approve", { tenantId: world.tenantId, poolId: world.pools.a, requestId }, { bearer: world.keys.admin });
    const admitted = await simulate("retry", "unknown", "--token", world.tokens.a);
    expect(admitted).toContain("HTTP 200");
    expect(admitted).toMatch(/certificate: subject CN=sim-unknown-/);
    expect(await simulate("retry", "unknown", "--token", world.tokens.a)).toContain("HTTP 409");
  }, 60_000);

  it("tpm-allowed presents the fixture EK: a TPM pool does not defer it for the EK", async () => {
    const output = await simulate("tpm-allowed", "--pool", world.tpmPoolId, "--token", world.tokens.tpm);
    expect(output).toContain("HTTP 202");
    expect(output).toContain("reasons: unknown-to-discovery"); // this world's inventory does not know the demo UUIDs
    expect(output).not.toContain("tpm-ek-not-allowed");
    const unknown = await simulate("tpm-unknown", "--pool", world.tpmPoolId, "--token", world.tokens.tpm);
    expect(unknown).toContain("tpm-ek-not-allowed");
  }, 60_000);

  it("reimage: the same hardware with a new CSR; once the machine is made known, that join is admitted at once", async () => {
    const first = await simulate("unknown", "--pool", world.pools.a, "--token", world.tokens.a, "--name", "rack7");
    expect(first).toContain("HTTP 202");
    const saved = JSON.parse(await readFile(path.join(stateDir, "rack7", "machine.json"), "utf8")) as { body: { csr: string; hardware: { systemUuid: string; macAddresses: string[] } } };
    const { systemUuid, macAddresses } = saved.body.hardware;
    // a tenant-admin makes it known (as "Trust this machine" or `admin discovery import` would)
    const owner = await createServiceKey(world.tenantId, [{ tenantId: world.tenantId, poolId: null, role: "tenant_admin" }]);
    const machines = [{ systemUuid, macAddresses, assignedPoolId: null }];
    expect((await callMethod("discovery/upsert", { tenantId: world.tenantId, siteId: world.siteId, machines }, { bearer: owner })).status).toBe(200);
    expect(await simulate("retry", "rack7", "--token", world.tokens.a)).toContain("HTTP 202"); // its pending request still waits for a person
    const reimaged = await simulate("reimage", "rack7", "--token", world.tokens.a);
    expect(reimaged).toContain("re-imaged rack7");
    expect(reimaged).toContain("HTTP 200");
    expect(reimaged).toContain("admitted: node node_");
    const after = JSON.parse(await readFile(path.join(stateDir, "rack7", "machine.json"), "utf8")) as typeof saved;
    expect(after.body.csr).not.toBe(saved.body.csr);
    expect(after.body.hardware).toEqual(saved.body.hardware);
  }, 60_000);

  it("an unknown scenario prints the usage", async () => {
    expect(await simulate("bogus")).toMatch(/Usage:[\s\S]*exit 2/);
  });
});
