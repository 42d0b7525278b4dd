import { makeKeyAndCsr } from "@/server/pki/make-csr";
import { signNodeToken } from "@/lib/node-credential/sign-node-token";
import { callMethod, type ApiResponse } from "./api-client";
import { join, joinThroughTpm, knownMachine, type JoinWorld, type Machine } from "./machine";
import type { SoftwareTpm } from "@/lib/tpm/software-tpm";

// Admitted nodes for the node-phase tests: a machine the inventory knows,
// joined with a key the test keeps, so it can speak as its node (SPEC D2).

export interface TestNode {
  nodeId: string;
  privateKeyPem: string;
  certificatePem: string;
  machine: Machine;
}

/** Joins a fresh known machine through `token` (pool a by default) and keeps its key. */
export async function admitNode(world: JoinWorld, token: string = world.tokens.a): Promise<TestNode> {
  const hostname = `node-${Math.random().toString(16).slice(2, 10)}.node.test`;
  const keys = await makeKeyAndCsr(hostname);
  const machine = await knownMachine(world.inventory.known, { hostname, csr: keys.csrPem });
  const response = await join(machine, token);
  if (response.status !== 200) throw new Error(`admission failed: ${response.status} ${response.text}`);
  return { nodeId: response.body.nodeId, privateKeyPem: keys.privateKeyPem, certificatePem: response.body.certificate, machine };
}

/** Calls a machine method as `node`, with a JWT made for that method unless `token` is given. */
export async function callAsNode<T = any>(
  method: string,
  body: unknown,
  node: Pick<TestNode, "nodeId" | "privateKeyPem">,
  options: { token?: string; rawBody?: string } = {},
): Promise<ApiResponse<T>> {
  const token = options.token ?? (await signNodeToken({ privateKeyPem: node.privateKeyPem, nodeId: node.nodeId, method }));
  return callMethod<T>(method, body, { bearer: token, rawBody: options.rawBody });
}

/** A node admitted through the TPM join (SPEC F1) with `tpm`, into the world's TPM pool: its AK is recorded for nodes/attest. */
export async function admitTpmNode(world: JoinWorld, tpm: SoftwareTpm): Promise<TestNode> {
  const hostname = `tpm-${Math.random().toString(16).slice(2, 10)}.node.test`;
  const keys = await makeKeyAndCsr(hostname);
  const machine = await knownMachine(world.inventory.known, { hostname, csr: keys.csrPem, tpm });
  const { response } = await joinThroughTpm(machine, world.tokens.tpm);
  if (response.status !== 200) throw new Error(`TPM admission failed: ${response.status} ${response.text}`);
  return { nodeId: response.body.nodeId, privateKeyPem: keys.privateKeyPem, certificatePem: response.body.certificate, machine };
}
