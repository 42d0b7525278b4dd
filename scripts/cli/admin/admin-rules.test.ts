import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { newId } from "@/lib/ids";
import { inProcessAdmin, json, unique } from "@/test/cli/admin";
import { cliFailure } from "../shared/run-cli";
import { ADMIN_HELP, runAdmin } from "./run-admin";

const { admin, adminWorld } = inProcessAdmin({ main: runAdmin, failure: (error) => cliFailure("admin", ADMIN_HELP, error) });

// `npm run admin -- rules list|create|delete|test` (SPEC H2).

const approveRack = [
  "--name",
  "rack",
  "--expression",
  "request.machine.hostname.startsWith('gpu-')",
  "--action",
  '{"approve":{"ttlSeconds":600}}',
  "--max-per-hour",
  "50",
];

describe("admin rules", () => {
  it("creates (shadow by default), lists, tests and deletes a rule, each change an event naming the operator", async () => {
    const { pools } = await adminWorld();
    const poolId = pools[0];
    const created = json<{ outcome: string; rule: { id: string; mode: string; version: number } }>(
      await admin(["rules", "create", "--pool", poolId, ...approveRack, "--json"]),
    );
    expect(created).toMatchObject({ outcome: "created", rule: { mode: "shadow", version: 1 } });
    const ruleId = created.rule.id;
    const listed = await admin(["rules", "list", "--pool", poolId]);
    expect(listed.stdout).toMatch(new RegExp(`^RULE .*\\n${ruleId} +rack +shadow +\\{"approve":\\{"ttlSeconds":600\\}\\} +50 +1 `));

    const db = await getDb();
    const pool = await db.pool.findUniqueOrThrow({ where: { id: poolId } });
    await db.joinRequest.create({
      data: {
        id: newId("jreq"),
        tenantId: pool.tenantId,
        siteId: pool.siteId,
        poolId,
        state: "pending",
        reasons: ["unknown-to-discovery"],
        hostname: "gpu-7.fra1.test",
        systemUuid: "4c4c4544-0000-4d10-8052-000000000007",
        serialNumber: "SN-7",
        macAddresses: [],
        csrSha256: "a".repeat(64),
        createdAt: new Date(),
        expiresAt: new Date(Date.now() + 3600_000),
        joinTokenId: "t",
      },
    });
    const tested = await admin(["rules", "test", "--pool", poolId, "--id", ruleId]);
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.stdout.split("\n")[0]).toBe(
      "1 requests: would approve 1, reject 0, require approvals 0, nothing 0, errors 0; agrees with people 0, disagrees 0",
    );
    const draft = json<{ summary: { nothing: number } }>(
      await admin(["rules", "test", "--pool", poolId, "--expression", "request.tpmProven", "--action", '{"reject":{}}', "--json"]),
    );
    expect(draft.summary.nothing).toBe(1);

    expect((await admin(["rules", "delete", "--pool", poolId, "--id", ruleId])).stdout).toBe(
      `changed: rule ${ruleId} deleted from pool ${poolId}`,
    );
    expect((await admin(["rules", "list", "--pool", poolId])).stdout).toBe(`no rules in pool ${poolId}`);
    const events = await db.event.findMany({ where: { poolId, type: "compute.approval-rule.changed" }, orderBy: { id: "asc" } });
    expect(events.map((event) => event.data)).toEqual([
      expect.objectContaining({ verb: "create", ruleId, actor: expect.stringMatching(/^cli:/), before: null }),
      expect.objectContaining({ verb: "delete", ruleId, after: null }),
    ]);
  });

  it.each([
    [["--expression", "request.nope", "--action", '{"reject":{}}'], /^admin failed: expression: request has no field 'nope'/],
    [["--expression", "true", "--action", '{"approve":{}}'], /^admin failed: maxPerHour: is required for an approve rule/],
    [["--expression", "true", "--action", "approve"], /^admin failed: action: must be an object/],
    [["--expression", "true", "--action", '{"reject":{}}', "--mode", "loud"], /^admin failed: mode: must be one of enforce, shadow/],
  ])("refuses %j naming the field (exit 1)", async (args, message) => {
    const { pools } = await adminWorld();
    const run = await admin(["rules", "create", "--pool", pools[0], "--name", "bad", ...args]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(message);
  });

  it("an unknown pool or rule is exit 1; a missing option is a usage error (exit 2)", async () => {
    const { pools } = await adminWorld();
    expect(await admin(["rules", "list", "--pool", unique("nopool")])).toMatchObject({ code: 1 });
    expect(await admin(["rules", "delete", "--pool", pools[0], "--id", "rule_01jr0000000000000000000000"])).toMatchObject({ code: 1 });
    expect((await admin(["rules", "create", "--pool", pools[0]])).code).toBe(2);
  });
});
