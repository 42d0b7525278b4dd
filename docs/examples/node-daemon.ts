// A node daemon's call as its node (SPEC D2), in TypeScript with `jose`: the
// README shows this file, and e2e/api/node-daemon-example.test.ts runs it
// against a real server, so the example cannot rot.
import { createPrivateKey } from "node:crypto";
import { SignJWT } from "jose";

export interface NodeIdentity {
  /** the node id the join answered (`node_…`) */
  nodeId: string;
  /** the private key (PEM) its CSR was made with */
  privateKeyPem: string;
}

/** POST /api/compute/<method> with a JWT signed by the node's own key, valid 2 minutes. */
export async function callAsNode(baseUrl: string, node: NodeIdentity, method: string, body: unknown): Promise<Response> {
  const key = createPrivateKey(node.privateKeyPem);
  const alg = key.asymmetricKeyType === "ed25519" ? "EdDSA" : key.asymmetricKeyType === "rsa" ? "RS256" : "ES256"; // P-256
  const now = Math.floor(Date.now() / 1000);
  const jwt = await new SignJWT({})
    .setProtectedHeader({ alg, kid: node.nodeId })
    .setSubject(node.nodeId)
    .setAudience(`/api/compute/${method}`)
    .setIssuedAt(now)
    .setExpirationTime(now + 120)
    .sign(key);
  return fetch(`${baseUrl}/api/compute/${method}`, {
    method: "POST",
    headers: { authorization: `Bearer ${jwt}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

// e.g.: await callAsNode("https://console.example", node, "inventory/report",
//   { sections: { os: { name: "Ubuntu", version: "22.04.4 LTS", kernel: "5.15.0-105-generic", arch: "x86_64" } } });
