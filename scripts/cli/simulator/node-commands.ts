// The simulated daemon after its admission (SPEC D2/D3): `report` sends the
// machine's inventory signed as its node, `renew` rotates its certificate.
// What the node needs is in its state directory: node.json (the node id and
// the inventory it last reported), key.pem (the key of its current
// certificate), certificate.pem.
import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import type { reportInventoryResponse } from "@/lib/api/responses/inventory";
import type { renewNodeResponse } from "@/lib/api/responses/nodes";
import { x509 } from "@/server/pki/x509";
import { makeKeyAndCsr } from "@/server/pki/make-csr";
import { signNodeToken } from "@/lib/node-credential/sign-node-token";
import { methodPath } from "@/lib/api/method-path";
import type { SimulatorOutput } from "./output";
import {
  applyInventoryChange,
  gpuServerInventory,
  type GpuServerInventory,
  type InventoryChange,
} from "@/lib/inventory/gpu-server-inventory";

export interface SavedNode {
  nodeId: string;
  /** what `report` sent last; --change applies to it, so changes add up */
  inventory?: GpuServerInventory;
}

interface Machine {
  hostname: string;
  hardware: { systemUuid: string; serialNumber: string };
}

export const nodeFile = (dir: string) => path.join(dir, "node.json");

export async function saveNode(dir: string, node: SavedNode): Promise<void> {
  await writeFile(nodeFile(dir), `${JSON.stringify(node, null, 2)}\n`);
}

export async function loadNode(dir: string, name: string): Promise<SavedNode> {
  const file = await readFile(nodeFile(dir), "utf8").catch(() => {
    throw new Error(`"${name}" has not been admitted yet: no node.json in ${dir} (join, or retry after the approval, first)`);
  });
  return JSON.parse(file) as SavedNode;
}

/** POSTs to a machine method as the node, printing the status: the answer as its published schema declares it, or not ok. */
export async function callAsNode<T>(
  out: SimulatorOutput,
  url: string,
  dir: string,
  node: SavedNode,
  method: string,
  body: unknown,
): Promise<{ ok: true; answer: T } | { ok: false }> {
  const privateKeyPem = await readFile(path.join(dir, "key.pem"), "utf8");
  const token = await signNodeToken({ privateKeyPem, nodeId: node.nodeId, method });
  const response = await fetch(new URL(methodPath(method), url), {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const answer: unknown = await response.json().catch(() => ({}));
  out.log(`HTTP ${response.status}`);
  if (response.ok) return { ok: true, answer: answer as T };
  const error = (answer as { error?: { code?: string; message?: string } }).error;
  out.log(`${error?.code ?? "error"}: ${error?.message ?? JSON.stringify(answer)}`);
  return { ok: false };
}

export async function reportCommand(
  out: SimulatorOutput,
  input: {
    url: string;
    dir: string;
    name: string;
    machine: Machine;
    change?: InventoryChange;
  },
): Promise<number> {
  const { url, dir, name, machine, change } = input;
  const node = await loadNode(dir, name);
  const current = node.inventory ?? gpuServerInventory({ hostname: machine.hostname, ...machine.hardware });
  const sections = change ? applyInventoryChange(current, change) : current;
  out.log(`${name} (node ${node.nodeId}) reports ${Object.keys(sections).length} sections${change ? ` after a change: ${change}` : ""}`);
  const result = await callAsNode<z.infer<typeof reportInventoryResponse>>(out, url, dir, node, "inventory/report", { sections });
  if (!result.ok) return 1;
  const { answer } = result;
  out.log(
    answer.changed
      ? `changed: new snapshot ${answer.snapshotId}, sections ${answer.changedSections.join(", ")}`
      : `unchanged: snapshot ${answer.snapshotId}`,
  );
  await saveNode(dir, { ...node, inventory: sections });
  return 0;
}

export async function renewCommand(
  out: SimulatorOutput,
  input: { url: string; dir: string; name: string; machine: Machine },
): Promise<number> {
  const { url, dir, name, machine } = input;
  const node = await loadNode(dir, name);
  const next = await makeKeyAndCsr(machine.hostname);
  out.log(`${name} (node ${node.nodeId}) renews its certificate with a new key`);
  const result = await callAsNode<z.infer<typeof renewNodeResponse>>(out, url, dir, node, "nodes/renew", { csr: next.csrPem });
  if (!result.ok) return 1;
  const { answer } = result;
  // the previous key and certificate are kept beside: they still count until their notAfter
  await rename(path.join(dir, "key.pem"), path.join(dir, "key.previous.pem"));
  await rename(path.join(dir, "certificate.pem"), path.join(dir, "certificate.previous.pem")).catch(() => undefined);
  await writeFile(path.join(dir, "key.pem"), next.privateKeyPem, { mode: 0o600 });
  await writeFile(path.join(dir, "certificate.pem"), answer.certificate);
  const certificate = new x509.X509Certificate(answer.certificate);
  out.log(
    `renewed: certificate ${certificate.serialNumber}, valid until ${certificate.notAfter.toISOString()}; the previous one counts until its own notAfter`,
  );
  return 0;
}
