import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join as joinPath } from "node:path";
import { gpuServerInventory } from "@/lib/inventory/gpu-server-inventory";
import { signNodeToken } from "@/lib/node-credential/sign-node-token";
import { makeKeyAndCsr } from "@/server/pki/make-csr";
import { join, knownMachine, type JoinWorld } from "../api/machine";
import type { TestNode } from "../api/node";
import { startHaCluster, type HaCluster } from "../harness/ha-cluster";
import { runNpmScript } from "../harness/run-npm-script";

// The HA fault test's database (issue 37): a Patroni cluster of its own
// behind HAProxy, migrated through the leader port; this test process's db
// client (test/api helpers) points at the same port from now on.

export interface HaFaultDatabase {
  cluster: HaCluster;
  /** what an app or worker process started against it needs */
  env: Record<string, string>;
}

export async function startHaFaultDatabase(log: (line: string) => void = () => {}): Promise<HaFaultDatabase> {
  const cluster = await startHaCluster(await mkdtemp(joinPath(tmpdir(), "bc-ha-test-")), log);
  const env = {
    DATABASE_URL: cluster.url,
    BC_CA_KEY_ENCRYPTION_KEY: process.env.BC_CA_KEY_ENCRYPTION_KEY ?? randomBytes(32).toString("base64"),
    BC_WORKERS: "off",
    BC_LOG_LEVEL: "info",
  };
  await runNpmScript("db:migrate", env);
  Object.assign(process.env, env);
  return { cluster, env };
}

/** A node admitted through the app at `baseUrl` (test/api/node's admitNode talks to the shared test server). */
export async function admitNodeAt(baseUrl: string, world: JoinWorld): Promise<TestNode> {
  const hostname = `node-${randomBytes(4).toString("hex")}.ha.test`;
  const keys = await makeKeyAndCsr(hostname);
  const machine = await knownMachine(world.inventory.known, { hostname, csr: keys.csrPem });
  const response = await join(machine, world.tokens.a, { baseUrl });
  if (response.status !== 200) throw new Error(`admission failed: ${response.status} ${response.text}`);
  return { nodeId: response.body.nodeId, privateKeyPem: keys.privateKeyPem, certificatePem: response.body.certificate, machine };
}

/** inventory/report as the node would send it (its own JWT for the method). */
export function reportInventoryAt(baseUrl: string, node: TestNode): () => Promise<Response> {
  return async () =>
    fetch(`${baseUrl}/api/compute/inventory/report`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${await signNodeToken({ privateKeyPem: node.privateKeyPem, nodeId: node.nodeId, method: "inventory/report" })}`,
      },
      body: JSON.stringify({ sections: gpuServerInventory(node.machine) }),
    });
}
