import { signNodeToken } from "@/lib/node-credential/sign-node-token";
import { gpuServerInventory, type GpuServerInventory } from "@/lib/inventory/gpu-server-inventory";
import { makeKeyAndCsr } from "@/server/pki/make-csr";
import { addDiscoveredMachine } from "./data";
import { join, makeMachine } from "./machine";
import { SERVICE_KEYS } from "./service-api";

// A real node for the console's node specs: a machine the test's own site
// knows, joined through a join token of the test's own pool with a key the
// test keeps, so that it can report as its node (SPEC D2, D3) the way the
// daemon and the simulator do.

export interface BrowserTestNode {
  nodeId: string;
  hostname: string;
  privateKeyPem: string;
  inventory: GpuServerInventory;
}

async function createJoinToken(baseURL: string, poolId: string): Promise<string> {
  const response = await fetch(new URL("/api/compute/joinTokens/create", baseURL), {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${SERVICE_KEYS.acmeAdmin}` },
    body: JSON.stringify({ tenantId: "acme", poolId, maxUses: 1, ttlSeconds: 3600 }),
  });
  if (response.status !== 200) throw new Error(`joinTokens/create: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { bearer: string }).bearer;
}

/** Admits a fresh machine into `poolId` (of `siteId`) and sends its first inventory report. */
export async function admitReportingNode(baseURL: string, poolId: string, siteId: string): Promise<BrowserTestNode> {
  const machine = await makeMachine("reporting");
  const keys = await makeKeyAndCsr(machine.hostname);
  await addDiscoveredMachine(siteId, poolId, machine);
  const admitted = await join(baseURL, { ...machine, csr: keys.csrPem }, await createJoinToken(baseURL, poolId));
  if (admitted.status !== 200) throw new Error(`join: ${admitted.status} ${JSON.stringify(admitted.body)}`);
  const node = {
    nodeId: admitted.body.nodeId as string,
    hostname: machine.hostname,
    privateKeyPem: keys.privateKeyPem,
    inventory: gpuServerInventory(machine),
  };
  const first = await reportInventory(baseURL, node, node.inventory);
  if (first !== 200) throw new Error(`the first inventory/report answered ${first}`);
  return node;
}

/** inventory/report as `node`, signed with its key; the HTTP status. */
export async function reportInventory(
  baseURL: string,
  node: Pick<BrowserTestNode, "nodeId" | "privateKeyPem">,
  sections: GpuServerInventory,
): Promise<number> {
  const token = await signNodeToken({ privateKeyPem: node.privateKeyPem, nodeId: node.nodeId, method: "inventory/report" });
  const response = await fetch(new URL("/api/compute/inventory/report", baseURL), {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ sections }),
  });
  await response.arrayBuffer();
  return response.status;
}
