import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { DEMO_GOLDEN_BOOT_STATE } from "@/lib/tpm/demo-measured-boot";
import { callMethod } from "@/test/api/api-client";
import { createJoinWorld, type JoinWorld } from "@/test/api/machine";
import { simulator } from "@/test/api/simulator";
import { runSimulator, simulatorFailure } from "@/scripts/cli/simulator/run-simulator";

// SPEC I3: `npm run simulate -- attest` quotes with the software TPM the
// simulated machine joined with, on a schedule (--every, --times).
let world: JoinWorld;
let stateDir: string;

beforeAll(async () => {
  world = await createJoinWorld();
  stateDir = await mkdtemp(path.join(tmpdir(), "bc-simulator-attest-"));
  await (await getDb()).pool.update({ where: { id: world.tpmPoolId }, data: { bootStates: [DEMO_GOLDEN_BOOT_STATE] } });
});
afterAll(() => rm(stateDir, { recursive: true, force: true }));

const simulate = simulator(() => stateDir, { run: runSimulator, failure: simulatorFailure });

it("a simulated TPM machine, admitted after an approval, attests trusted twice on a schedule, then untrusted with --tamper", async () => {
  const first = await simulate("tpm-allowed", "--pool", world.tpmPoolId, "--token", world.tokens.tpm, "--name", "sim-tpm");
  const requestId = /request (jreq_\w+)/.exec(first)?.[1];
  expect(requestId, first).toBeDefined();
  const approved = await callMethod(
    "joinRequests/approve",
    { tenantId: world.tenantId, poolId: world.tpmPoolId, requestId },
    { bearer: world.keys.admin },
  );
  expect(approved.status, approved.text).toBe(200);
  expect(await simulate("retry", "sim-tpm", "--token", world.tokens.tpm)).toContain("HTTP 200");

  const scheduled = await simulate("attest", "sim-tpm", "--every", "0.2", "--times", "2");
  expect(scheduled.match(new RegExp(`trusted: boot state "${DEMO_GOLDEN_BOOT_STATE.name}"`, "g")), scheduled).toHaveLength(2);
  const tampered = await simulate("attest", "sim-tpm", "--tamper");
  expect(tampered).toContain("untrusted: PCR 7 matched no known boot state");
  expect(await simulate("attest", "sim-tpm", "--times", "0")).toContain("--times");
}, 120_000);
