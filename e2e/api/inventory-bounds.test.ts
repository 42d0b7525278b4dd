import { readFile, stat } from "node:fs/promises";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { getDb } from "@/server/db/client";
import { ulid } from "ulid";
import { gpuServerInventory } from "@/lib/inventory/gpu-server-inventory";
import { expectError } from "@/test/api/api-client";
import { createJoinWorld, type JoinWorld } from "@/test/api/machine";
import { admitNode, callAsNode, type TestNode } from "@/test/api/node";

// SPEC G5 over HTTP: a report cannot make the server recurse without bound,
// and a node cannot grow its history without bound.
let world: JoinWorld;
beforeAll(async () => {
  world = await createJoinWorld();
});

const report = (node: TestNode, sections: unknown) => callAsNode("inventory/report", { sections }, node);
const snapshotCount = async (node: TestNode) => (await getDb()).inventorySnapshot.count({ where: { nodeId: node.nodeId } });
/** `levels` objects, each holding the next under "a"; the innermost holds a number. */
const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = { a: value };
  return value;
};
const pathTo = (section: string, depth: number) => ["sections", section, ...Array(depth - 1).fill("a")].join(".");
const logSince = async (start: number) => {
  await new Promise((resolve) => setTimeout(resolve, 300)); // the server writes its log asynchronously
  return (await readFile(inject("serverLogFile"))).subarray(start).toString("utf8");
};

describe("nesting (G5)", () => {
  it("32 levels inside a section are taken", async () => {
    const node = await admitNode(world);
    const answer = await report(node, { deep: nested(32) });
    expect(answer.status).toBe(200);
    expect(answer.body.changed).toBe(true);
  });

  it.each([33, 3_000])("%i levels are INVALID_ARGUMENT naming the path to level 33; nothing stored, no stack trace", async (levels) => {
    const node = await admitNode(world);
    const start = (await stat(inject("serverLogFile"))).size;
    const answer = await report(node, { ...gpuServerInventory(node.machine), deep: nested(levels) });
    expectError(answer, 400, "INVALID_ARGUMENT");
    expect(answer.body.error.details[0].field).toBe(pathTo("deep", 33));
    expect(answer.body.error.message).toMatch(/deeper than 32 levels/);
    expect(await snapshotCount(node)).toBe(0);
    const log = await logSince(start);
    expect(log).not.toMatch(/RangeError|Maximum call stack|\n\s+at /);
  });

  it("arrays count as levels too, and a body nested 100,000 deep (JSON.parse takes it) is 400, not 500", async () => {
    const node = await admitNode(world);
    const arrays = await report(node, { deep: JSON.parse(`${"[".repeat(33)}${"]".repeat(33)}`) });
    expectError(arrays, 400, "INVALID_ARGUMENT");
    expect(arrays.body.error.details[0].field).toBe(["sections", "deep", ...Array(32).fill("0")].join("."));
    const raw = `{"sections":{"deep":${"[".repeat(100_000)}${"]".repeat(100_000)}}}`;
    expectError(await callAsNode("inventory/report", undefined, node, { rawBody: raw }), 400, "INVALID_ARGUMENT");
    const elsewhere = `{"sections":{},"deep":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    expectError(await callAsNode("inventory/report", undefined, node, { rawBody: elsewhere }), 400, "INVALID_ARGUMENT");
    expect(await snapshotCount(node)).toBe(0);
  });
});

/**
 * The id a snapshot taken at `at` has. Not newId: its ids are monotonic per
 * process, so after any id this process made since `at` it stamps them with
 * that later time. With files sharing a worker, that time was late enough to
 * sort them after the server's new snapshots, and the cap measured its window
 * from the wrong one.
 */
const backdatedId = (at: Date) => `inv_${ulid(at.getTime()).toLowerCase()}`;

describe("at most 60 changed snapshots an hour (G5)", () => {
  it("past 60 in the window, concurrent changed reports store none beyond it: 429 with Retry-After; unchanged is 200", async () => {
    const node = await admitNode(world);
    const db = await getDb();
    const now = Date.now();
    // 58 snapshots of the last 50 minutes, the oldest 50 minutes ago: it leaves the window in 10 minutes
    const taken = (index: number) => new Date(now - 50 * 60_000 + index * 30_000);
    await db.inventorySnapshot.createMany({
      data: Array.from({ length: 58 }, (_, index) => ({
        id: backdatedId(taken(index)),
        nodeId: node.nodeId,
        takenAt: taken(index),
        lastReportedAt: taken(index),
        sectionsSha256: index.toString(16).padStart(64, "0"),
        changedSections: ["counter"],
        sections: { counter: { value: index } },
      })),
    });
    const answers = await Promise.all(Array.from({ length: 6 }, (_, index) => report(node, { counter: { value: 100 + index } })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 429, 429, 429, 429]);
    expect(await snapshotCount(node)).toBe(60);
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      expectError(refused, 429, "RESOURCE_EXHAUSTED");
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(9 * 60);
      expect(retryAfter).toBeLessThanOrEqual(10 * 60);
    }

    const latest = await db.inventorySnapshot.findFirstOrThrow({ where: { nodeId: node.nodeId }, orderBy: { id: "desc" } });
    const again = await report(node, latest.sections);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ snapshotId: latest.id, changed: false, changedSections: [] });
    expectError(await report(node, { counter: { value: 999 } }), 429, "RESOURCE_EXHAUSTED");
    expect(await snapshotCount(node)).toBe(60);
  });
});
