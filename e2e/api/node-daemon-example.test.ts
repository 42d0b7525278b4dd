import { beforeAll, expect, inject, it } from "vitest";
import { callAsNode } from "@/docs/examples/node-daemon";
import { admitNode } from "@/test/api/node";
import { createJoinWorld, type JoinWorld } from "@/test/api/machine";

// The README's daemon example (docs/examples/node-daemon.ts) speaks as a real node.
let world: JoinWorld;

beforeAll(async () => {
  world = await createJoinWorld();
});

it("docs/examples/node-daemon.ts reports an inventory as its node, and a wrong node id is the uniform 401", async () => {
  const node = await admitNode(world);
  const sections = { os: { name: "Ubuntu", version: "22.04.4 LTS", kernel: "5.15.0-105-generic", arch: "x86_64" } };
  const response = await callAsNode(inject("baseUrl"), node, "inventory/report", { sections });
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ changed: true, changedSections: ["os"] });
  const other = await admitNode(world);
  const refused = await callAsNode(inject("baseUrl"), { ...node, nodeId: other.nodeId }, "inventory/report", { sections });
  expect(refused.status).toBe(401);
});
