// The simulated daemon after its admission (SPEC D2/D3): `report` sends the
// machine's inventory signed as its node, `renew` rotates its certificate.
// What the node needs is in its state directory: node.json (the node id and
// the inventory it last reported), key.pem (the key of its current
// certificate), certificate.pem.
import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { x509 } from "@/server/pki/x509";
import { makeKeyAndCsr } from "@/server/pki/make-csr";
import { signNodeToken } from "@/lib/node-credential/sign-node-token";
import { methodPath } from "@/lib/api/method-path";
import { applyInventoryChange, gpuServerInventory, type GpuServerInventory, type InventoryChange } from "@/lib/inventory/gpu-server-inventory";

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

async function loadNode(dir: string, name: string): Promise<SavedNode> {
  const file = await readFile(nodeFile(dir), "utf8").catch(() => {
    throw new Error(`"${name}" has not been admitted yet: no node.json in ${dir} (join, or retry after the approval, first)`);
  });
  return JSON.parse(file) as SavedNode;
}

/** POSTs to a machine method as the node, printing the answer; resolves to the status and body. */
async function callAsNode(url: string, dir: string, node: SavedNode, method: string, body: unknown) {
  const privateKeyPem = await readFile(path.join(dir, "key.pem"), "utf8");
  const token = await signNodeToken({ privateKeyPem, nodeId: node.nodeId, method });
  const response = await fetch(new URL(methodPath(method), url), {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => ({}))) as Record<string, any>;
  console.log(`HTTP ${response.status}`);
  if (!response.ok) console.log(`${answer.error?.code ?? "error"}: ${answer.error?.message ?? JSON.stringify(answer)}`);
  return { ok: response.ok, answer };
}

export async function reportCommand(input: { url: string; dir: string; name: string; machine: Machine; change?: InventoryChange }): Promise<number> {
  const { url, dir, name, machine, change } = input;
  const node = await loadNode(dir, name);
  const current = node.inventory ?? gpuServerInventory({ hostname: machine.hostname, ...machine.hardware });
  const sections = change ? applyInventoryChange(current, change) : current;
  console.log(`${name} (node ${node.nodeId}) reports ${Object.keys(sections).length} sections${change ? ` after a change: ${change}` : ""}`);
  const { ok, answer } = await callAsNode(url, dir, node, "inventory/report", { sections });
  if (!ok) return 1;
  console.log(answer.changed ? `changed: new snapshot ${answer.snapshotId}, sections ${answer.changedSections.join(", ")}` : `unchanged: snapshot ${answer.snapshotId}`);
  await saveNode(dir, { ...node, inventory: sections });
  return 0;
}

export async function renewCommand(input: { url: string; dir: string; name: string; machine: Machine }): Promise<number> {
  const { url, dir, name, machine } = input;
  const node = await loadNode(dir, name);
  const next = await makeKeyAndCsr(machine.hostname);
  console.log(`${name} (node ${node.nodeId}) renews its certificate with a new key`);
  const { ok, answer } = await callAsNode(url, dir, node, "nodes/renew", { csr: next.csrPem });
  if (!ok) return 1;
  // the previous key and certificate are kept beside: they still count until their notAfter
  await rename(path.join(dir, "key.pem"), path.join(dir, "key.previous.pem"));
  await rename(path.join(dir, "certificate.pem"), path.join(dir, "certificate.previous.pem")).catch(() => undefined);
  await writeFile(path.join(dir, "key.pem"), next.privateKeyPem, { mode: 0o600 });
  await writeFile(path.join(dir, "certificate.pem"), answer.certificate);
  const certificate = new x509.X509Certificate(answer.certificate);
  console.log(`renewed: certificate ${certificate.serialNumber}, valid until ${certificate.notAfter.toISOString()}; the previous one counts until its own notAfter`);
  return 0;
}
