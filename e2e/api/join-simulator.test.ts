import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callMethod } from "@/test/api/api-client";
import { createJoinWorld, type JoinWorld } from "@/test/api/machine";
import { createServiceKey } from "@/test/api/world";
import { simulator } from "@/test/api/simulator";
import { runSimulator, simulatorFailure } from "@/scripts/cli/simulator/run-simulator";

// npm run simulate drives the join as a daemon would; retry re-sends the saved CSR.
let world: JoinWorld;
let stateDir: string;

beforeAll(async () => {
  world = await createJoinWorld();
  stateDir = await mkdtemp(path.join(tmpdir(), "bc-simulator-"));
});
afterAll(() => rm(stateDir, { recursive: true, force: true }));

const simulate = simulator(() => stateDir, { run: runSimulator, failure: simulatorFailure });

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
    const saved = JSON.parse(await readFile(path.join(stateDir, "rack7", "machine.json"), "utf8")) as {
      body: { csr: string; hardware: { systemUuid: string; macAddresses: string[] } };
    };
    const { systemUuid, macAddresses } = saved.body.hardware;
    // a tenant-admin makes it known (as "Trust this machine" or `admin discovery import` would)
    const owner = await createServiceKey(world.tenantId, [{ tenantId: world.tenantId, poolId: null, role: "tenant_admin" }]);
    const machines = [{ systemUuid, macAddresses, assignedPoolId: null }];
    expect(
      (await callMethod("discovery/upsert", { tenantId: world.tenantId, siteId: world.siteId, machines }, { bearer: owner })).status,
    ).toBe(200);
    expect(await simulate("retry", "rack7", "--token", world.tokens.a)).toContain("HTTP 202"); // its pending request still waits for a person
    const reimaged = await simulate("reimage", "rack7", "--token", world.tokens.a);
    expect(reimaged).toContain("re-imaged rack7");
    expect(reimaged).toContain("HTTP 200");
    expect(reimaged).toContain("admitted: node node_");
    const after = JSON.parse(await readFile(path.join(stateDir, "rack7", "machine.json"), "utf8")) as typeof saved;
    expect(after.body.csr).not.toBe(saved.body.csr);
    expect(after.body.hardware).toEqual(saved.body.hardware);
  }, 60_000);

  it("report and renew speak as the admitted node: stored, unchanged, changed, rotated, and refused once revoked", async () => {
    // this world's discovery does not know the machine: deferred; made known, its re-imaged join is admitted at once
    expect(await simulate("unknown", "--pool", world.pools.a, "--token", world.tokens.a, "--name", "gpu7")).toContain("HTTP 202");
    const saved = JSON.parse(await readFile(path.join(stateDir, "gpu7", "machine.json"), "utf8")) as {
      body: { hardware: { systemUuid: string; macAddresses: string[] } };
    };
    const owner = await createServiceKey(world.tenantId, [{ tenantId: world.tenantId, poolId: null, role: "tenant_admin" }]);
    const machines = [{ systemUuid: saved.body.hardware.systemUuid, macAddresses: saved.body.hardware.macAddresses, assignedPoolId: null }];
    expect(
      (await callMethod("discovery/upsert", { tenantId: world.tenantId, siteId: world.siteId, machines }, { bearer: owner })).status,
    ).toBe(200);
    expect(await simulate("reimage", "gpu7", "--token", world.tokens.a)).toContain("HTTP 200");
    const { nodeId } = JSON.parse(await readFile(path.join(stateDir, "gpu7", "node.json"), "utf8")) as { nodeId: string };
    const first = await simulate("report", "gpu7");
    expect(first).toContain("HTTP 200");
    expect(first).toMatch(/changed: new snapshot inv_\w+, sections cpu, disks, gpus, memory, network, os, software, system/);
    expect(await simulate("report", "gpu7")).toContain("unchanged: snapshot");
    expect(await simulate("report", "gpu7", "--change", "driver")).toContain("sections gpus, software");
    expect(await simulate("report", "gpu7", "--change", "disk-added")).toContain("sections disks");
    expect(await simulate("report", "gpu7", "--change", "tape")).toMatch(/--change must be one of[\s\S]*exit 2/);

    const renewed = await simulate("renew", "gpu7");
    expect(renewed).toContain("HTTP 200");
    expect(renewed).toMatch(/renewed: certificate [0-9a-f]+, valid until/);
    expect(await readFile(path.join(stateDir, "gpu7", "key.previous.pem"), "utf8")).toMatch(/PRIVATE KEY/);
    expect(await simulate("report", "gpu7")).toContain("unchanged: snapshot"); // the new key speaks for the same node

    const history = await callMethod("inventory/list", { tenantId: world.tenantId, nodeId }, { bearer: world.keys.admin });
    expect(history.body.snapshots.map((snapshot: { changedSections: string[] }) => snapshot.changedSections)).toEqual([
      ["disks"],
      ["gpus", "software"],
      ["cpu", "disks", "gpus", "memory", "network", "os", "software", "system"],
    ]);
    await callMethod("nodes/revoke", { tenantId: world.tenantId, nodeId, reason: "retired" }, { bearer: world.keys.admin });
    const refused = await simulate("report", "gpu7");
    expect(refused).toContain("HTTP 401");
    expect(refused).toContain("UNAUTHENTICATED: the node credential is not valid");
    expect(await simulate("report", "never-joined")).toMatch(/no saved machine "never-joined"[\s\S]*exit 1/);
  }, 180_000);

  it("an unknown scenario prints the usage", async () => {
    expect(await simulate("bogus")).toMatch(/Usage:[\s\S]*exit 2/);
  });
});
