import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { inProcessAdmin, json, unique } from "@/test/cli/admin";
import { cliFailure } from "../shared/run-cli";
import { ADMIN_HELP, runAdmin } from "./run-admin";

const { admin, adminWorld } = inProcessAdmin({ main: runAdmin, failure: (error) => cliFailure("admin", ADMIN_HELP, error) });

// `npm run admin -- pools update --pool <id> --approvals-required N` (SPEC H1).

const updatesOf = async (poolId: string) =>
  (await getDb()).event.findMany({ where: { type: "compute.admin.changed", poolId, data: { path: ["verb"], equals: "update" } } });

describe("admin pools update", () => {
  it("sets approvals required; the same again is unchanged with no second event", async () => {
    const { pools } = await adminWorld();
    const poolId = pools[0];
    expect(await admin(["pools", "update", "--pool", poolId, "--approvals-required", "3"])).toMatchObject({
      code: 0,
      stdout: `changed: pool ${poolId} requires 3 approvals`,
    });
    expect((await admin(["pools", "update", "--pool", poolId, "--approvals-required", "3"])).stdout).toBe(
      `pool ${poolId} requires 3 approvals: unchanged (already so), nothing written`,
    );
    await expect((await getDb()).pool.findUniqueOrThrow({ where: { id: poolId } })).resolves.toMatchObject({ approvalsRequired: 3 });
    const events = await updatesOf(poolId);
    expect(events.map((event) => event.data)).toEqual([
      expect.objectContaining({ noun: "pool", verb: "update", approvalsRequired: "3", previousApprovalsRequired: "1" }),
    ]);
    const back = json<{ outcome: string; pool: { approvalsRequired: number } }>(
      await admin(["pools", "update", "--pool", poolId, "--approvals-required", "1", "--json"]),
    );
    expect(back).toMatchObject({ outcome: "changed", pool: { approvalsRequired: 1 } });
  });

  it.each(["0", "6", "2.5", "two"])("--approvals-required %s is exit 1 naming the field, and changes nothing", async (value) => {
    const { pools } = await adminWorld();
    const run = await admin(["pools", "update", "--pool", pools[0], "--approvals-required", value]);
    expect(run).toMatchObject({ code: 1, stderr: "admin failed: approvalsRequired: must be an integer from 1 to 5" });
    expect(await updatesOf(pools[0])).toEqual([]);
  });

  it("an unknown pool is exit 1; a missing pool or no setting at all is a usage error (exit 2)", async () => {
    const { pools } = await adminWorld();
    expect(await admin(["pools", "update", "--pool", unique("nopool"), "--approvals-required", "2"])).toMatchObject({ code: 1 });
    expect((await admin(["pools", "update", "--approvals-required", "2"])).code).toBe(2);
    const bare = await admin(["pools", "update", "--pool", pools[0]]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("give at least one setting to change");
  });

  // issue #39: the notification default and escalation, as pools/update sets them
  it("sets the notification default and escalation; off and '' turn escalation off", async () => {
    const { pools } = await adminWorld();
    const poolId = pools[0];
    const set = await admin([
      "pools",
      "update",
      "--pool",
      poolId,
      "--notify-default",
      "hourly",
      "--escalate-after-minutes",
      "30",
      "--escalation-emails",
      "Oncall@Example.com, lead@example.com,oncall@example.com",
    ]);
    expect(set).toMatchObject({
      code: 0,
      stdout: `changed: pool ${poolId} notifies hourly by default; escalates after 30 min; escalates to oncall@example.com, lead@example.com`,
    });
    await expect((await getDb()).pool.findUniqueOrThrow({ where: { id: poolId } })).resolves.toMatchObject({
      notifyDefault: "hourly",
      escalateAfterMinutes: 30,
      escalationEmails: ["oncall@example.com", "lead@example.com"],
    });
    expect((await updatesOf(poolId)).map((event) => event.data)).toEqual([
      expect.objectContaining({
        notifyDefault: "hourly",
        previousNotifyDefault: "immediate",
        escalateAfterMinutes: 30,
        previousEscalateAfterMinutes: null,
      }),
    ]);
    const off = json<{ outcome: string; pool: { escalateAfterMinutes: number | null; escalationEmails: string[] } }>(
      await admin(["pools", "update", "--pool", poolId, "--escalate-after-minutes", "off", "--escalation-emails", "", "--json"]),
    );
    expect(off).toMatchObject({ outcome: "changed", pool: { escalateAfterMinutes: null, escalationEmails: [] } });
  });

  it.each([
    [["--notify-default", "weekly"], "notifyDefault: must be one of immediate, digest_15m, hourly, off"],
    [["--escalate-after-minutes", "soon"], "escalateAfterMinutes:"],
    [["--escalate-after-minutes", "0"], "escalateAfterMinutes:"],
    [["--escalation-emails", "oncall@example.com,not-an-address"], "escalationEmails.1:"],
  ])("%j is exit 1 naming the field, and changes nothing", async (settings, named) => {
    const { pools } = await adminWorld();
    const run = await admin(["pools", "update", "--pool", pools[0], ...settings]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`admin failed: ${named}`);
    expect(await updatesOf(pools[0])).toEqual([]);
  });
});
