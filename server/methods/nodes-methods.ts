import "server-only";
import { nodeJson } from "@/lib/nodes/node-json";
import { attestNodeResponse, joinAdmitted, joinDeferred, listNodesResponse, renewNodeResponse } from "@/lib/api/responses/nodes";
import { attestNodeInput } from "@/lib/validations/node-attest";
import { issueAttestationChallenge } from "../nodes/issue-attestation-challenge";
import { recordNodeAttestation } from "../nodes/record-node-attestation";
import { joinNodeInput } from "@/lib/validations/node-join";
import { authenticateJoinCredential } from "../nodes/join-credential";
import { joinNode } from "../nodes/join-node";
import { capJoinRate } from "../nodes/join-rate-cap";
import { inJoinTurn } from "../nodes/join-admission";
import { getNodeInput, listNodesInput, renewNodeInput, revokeNodeInput } from "@/lib/validations/nodes";
import { toNodeJson } from "@/lib/nodes/node-json";
import { authenticateNode, authenticateRenewingNode } from "../nodes/authenticate-node";
import { listNodes } from "../nodes/list-nodes";
import { attestationReading } from "../nodes/attestation-reading";
import { renewNodeCertificate } from "../nodes/renew-node-certificate";
import { revokeNode } from "../nodes/revoke-node";
import { defineMachineMethod, definePoolMethod, defineNodeMethod, MethodResult } from "./define-method";
import { observeJoin } from "../metrics/observe";

// SPEC B5: the node daemon's join, with a join token or a site enrollment key.
export const joinNodeMethod = defineMachineMethod({
  name: "nodes/join",
  responses: { 200: joinAdmitted, 202: joinDeferred },
  kind: "mutation",
  phase: "v0.2",
  status: "registered",
  module: "server",
  summary:
    "A machine joins: admitted with a certificate (200), deferred into a pending join request (202), or challenged to prove its TPM (202).",
  description:
    "The CSR's key must be P-256, P-384, Ed25519 or RSA ≥ 2048 bits, signed with SHA-256 or stronger, and its signature must verify. " +
    "The hardware, discovery and tpm attestors run in turn, then the machine's system UUID and its hostname must belong to no active node " +
    "of the tenant (else deferred machine-already-joined / hostname-in-use). In a pool that requires TPM the EK is trusted only once proven: " +
    "a join with tpm.ekPublicKey and tpm.akPublic (a restricted signing key's TPM2B_PUBLIC) is answered 202 challenge with TPM2_MakeCredential's " +
    "credentialBlob and encryptedSecret, valid 5 minutes and bound to the CSR; the machine repeats the join with the same CSR and " +
    "tpm.activation { challengeId, secret } (a wrong, expired, reused or foreign activation is 403). None deferred → 200 admitted with the " +
    "CSR signed by the tenant's CA; any deferred → a new pending request (202). A retry with the same CSR: pending → the same 202; " +
    "approved → consumed once, 200, replacing the machine's earlier active node (a hostname taken meanwhile is 409); rejected → 403 JOIN_REJECTED; " +
    "consumed → 409 INVALID_STATE; expired → a fresh pending request.",
  publishes: ["security.join-request.created", "security.join-request.consumed", "compute.node.joined", "compute.node.revoked"],
  credentials: ["joinToken", "enrollmentKey"],
  input: joinNodeInput,
  authenticate: authenticateJoinCredential,
  handler: async ({ db, input, credential }) => {
    const outcome = await observeJoin(async () => {
      await capJoinRate(credential);
      // `now` as the join's turn comes: a wait in line must not shorten what it is given
      return inJoinTurn(() => joinNode({ db, credential, body: input, now: new Date() }));
    });
    return outcome.status === "admitted" ? outcome : new MethodResult(202, outcome);
  },
});

// SPEC D1: the nodes an admission made, read and revoked by users and services.
const nodePhase = { phase: "v0.4", status: "registered", module: "server" } as const;

export const listNodesMethod = definePoolMethod({
  ...nodePhase,
  name: "nodes/list",
  responses: { 200: listNodesResponse },
  kind: "read",
  permission: "compute:nodes:read",
  resource: "compute-pool",
  summary: "Lists a pool's nodes in ascending id: the active ones by default, `revoked`, or `all`.",
  description:
    "Each node carries its machine facts, the join request it consumed (null when admitted at once), its current certificate, when it " +
    "last called as itself (to the minute) and its latest inventory snapshot. Pages hold up to 200 nodes (100 by default).",
  input: listNodesInput,
  handler: ({ db, pool, input, now }) =>
    listNodes({
      db,
      pool,
      state: input.state,
      attestation: input.attestation,
      limit: input.limit,
      cursor: input.cursor,
      now,
    }),
});

export const getNodeMethod = defineNodeMethod({
  ...nodePhase,
  name: "nodes/get",
  responses: { 200: nodeJson },
  kind: "read",
  permission: "compute:nodes:read",
  resource: "compute-node",
  summary: "Returns one node.",
  description:
    "A caller whose grants could not cover the node is `PERMISSION_DENIED` whether or not it exists, a pool-scoped caller asking for a " +
    "node outside its pool included; with a covering tenant-wide grant, an unknown node or another tenant's is `NOT_FOUND`.",
  input: getNodeInput,
  handler: async ({ db, node, now }) => toNodeJson(node, await attestationReading(db, node.poolId, now)),
});

export const revokeNodeMethod = defineNodeMethod({
  ...nodePhase,
  name: "nodes/revoke",
  responses: { 200: nodeJson },
  kind: "mutation",
  permission: "compute:nodes:revoke",
  resource: "compute-node",
  summary: "Revokes a node: its credential is refused from then on; its history stays readable.",
  description: "Revoking a node that is already revoked returns it unchanged and publishes nothing.",
  publishes: ["compute.node.revoked"],
  input: revokeNodeInput,
  handler: ({ db, node, input, principal, now }) => revokeNode({ db, node, reason: input.reason, actor: principal.id, now }),
});

export const renewNodeMethod = defineMachineMethod({
  ...nodePhase,
  name: "nodes/renew",
  responses: { 200: renewNodeResponse },
  kind: "mutation",
  summary: "The node rotates its certificate before it expires: a new CSR, a new 30-day certificate and the CA certificate.",
  description:
    "The CSR's own signature must verify; a new key is allowed. Only a JWT signed by the key of the node's newest certificate renews: the " +
    "previous certificate keeps verifying the node's other calls until its `notAfter`, but not this one; any older one stops. Of two " +
    "renewals with the same key at once, one wins and the other is refused. A revoked node is refused like any bad credential.",
  credentials: ["nodeJwt"],
  input: renewNodeInput,
  authenticate: authenticateRenewingNode,
  handler: ({ db, input, credential, now }) => renewNodeCertificate({ db, node: credential, csrPem: input.csr, now }),
});

// SPEC I3: the node proves again, by a fresh TPM quote, what it booted.
export const attestNodeMethod = defineMachineMethod({
  phase: "v0.6",
  status: "registered",
  module: "server",
  name: "nodes/attest",
  responses: { 200: attestNodeResponse },
  kind: "mutation",
  summary: "The node attests its boot: without `quote`, a nonce and the PCRs to quote; with `quote`, its attestation as recorded.",
  description:
    "Two steps. Without `quote` the answer is `{ nonce, pcrSelection, expiresAt }`: 32 random bytes (base64) valid 5 minutes and every " +
    "SHA-256 PCR index the pool's boot states name. The node runs TPM2_Quote with the AK its join proved, the nonce as qualifying data " +
    "(`tpm2_quote -q <nonce in hex> -l sha256:<selection>`) and calls again with `quote: { attest, signature, pcrs }` (TPMS_ATTEST and " +
    "TPMT_SIGNATURE in base64, the PCR values in hex). The quote is checked as a join's: the AK's signature, a TPM-generated quote, the " +
    "nonce of a live challenge of this node (each used once), exactly the selection, values hashing to the attested digest; any failure " +
    "is 403 and records nothing. Values matching a boot state of the pool record `trusted` with its name; none, `untrusted` with the " +
    "indices no known state holds; a change to untrusted publishes `compute.node.attestation-failed` (once per change). A node without " +
    "an AK (it joined without proving a TPM) or in a pool with no boot states is 409 INVALID_STATE.",
  publishes: ["compute.node.attestation-failed"],
  credentials: ["nodeJwt"],
  input: attestNodeInput,
  authenticate: authenticateNode,
  handler: ({ db, input, credential, now }) =>
    input.quote
      ? recordNodeAttestation({ db, node: credential, quote: input.quote, now })
      : issueAttestationChallenge({ db, node: credential, now }),
});
