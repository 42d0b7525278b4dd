import { z } from "zod";
import { JOIN_REQUEST_REASONS } from "@/lib/join-requests/join-request-json";
import { nodeJson } from "@/lib/nodes/node-json";
import { nodeAttestationJson } from "@/lib/nodes/node-attestation";
import { nextCursor, timestamp } from "@/lib/wire/fields";

// What the nodes methods answer (SPEC B5, D1, F1); get and revoke return the node itself.

const pem = z.string().startsWith("-----BEGIN ");

/** 200: the CSR signed by the tenant's CA. */
export const joinAdmitted = z.strictObject({
  status: z.literal("admitted"),
  nodeId: z.string().startsWith("node_"),
  certificate: pem,
  caCertificate: pem,
});

/** 202: deferred into a pending join request. */
export const joinPending = z.strictObject({
  status: z.literal("pending"),
  requestId: z.string().startsWith("jreq_"),
  expiresAt: timestamp,
  reasons: z.array(z.enum(JOIN_REQUEST_REASONS)),
});

/** 202: prove the TPM (SPEC F1), each blob base64 with its 2-byte size prefix. */
export const joinChallenge = z.strictObject({
  status: z.literal("challenge"),
  challengeId: z.string().startsWith("tpmc_"),
  credentialBlob: z.base64().meta({ description: "TPM2B_ID_OBJECT" }),
  encryptedSecret: z.base64().meta({ description: "TPM2B_ENCRYPTED_SECRET" }),
  expiresAt: timestamp,
  nonce: z.base64().optional().meta({
    description: "SPEC I2, in a pool with boot states: 32 random bytes, the qualifying data of the retry's tpm.quote (tpm2_quote -q)",
  }),
  pcrSelection: z
    .array(z.int().min(0).max(23))
    .optional()
    .meta({ description: "SPEC I2: the SHA-256 PCR indices tpm.quote must cover, ascending (tpm2_quote -l sha256:…)" }),
});

export const joinDeferred = z.discriminatedUnion("status", [joinPending, joinChallenge]);
export type JoinNodeResult = z.infer<typeof joinAdmitted> | z.infer<typeof joinDeferred>;

export const listNodesResponse = z.strictObject({ nodes: z.array(nodeJson), nextCursor });

export const renewNodeResponse = z.strictObject({ nodeId: z.string().startsWith("node_"), certificate: pem, caCertificate: pem });

/** nodes/attest without a quote (SPEC I3): what the node's next quote must carry and cover. */
export const attestationChallenge = z.strictObject({
  nonce: z.base64().meta({ description: "32 random bytes: the quote's qualifying data (tpm2_quote -q, in hex there)" }),
  pcrSelection: z.array(z.number().int()).meta({ description: "the SHA-256 PCR indices to quote, ascending" }),
  expiresAt: timestamp,
});

/** nodes/attest: a challenge (no quote) or the node's attestation as recorded (a quote). */
export const attestNodeResponse = z.union([attestationChallenge, nodeAttestationJson.unwrap()]);
