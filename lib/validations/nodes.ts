import { z } from "zod";
import {
  boundedInt,
  nodeIdField,
  NODE_ID_PATTERN,
  optional,
  patternString,
  poolIdField,
  reasonField,
  snapshotIdField,
  SNAPSHOT_ID_PATTERN,
  tenantIdField,
  withDefault,
} from "./fields";
import { csrField } from "./node-join";

// The inputs of the node and inventory methods (SPEC D1, D3).

export const NODE_STATE_FILTERS = ["active", "revoked", "all"] as const;
export type NodeStateFilter = (typeof NODE_STATE_FILTERS)[number];

/** SPEC I3: how a node's attestation reads (lib/nodes/node-attestation.ts says when). */
export const ATTESTATION_STATES = ["trusted", "untrusted", "stale"] as const;
export type AttestationState = (typeof ATTESTATION_STATES)[number];

const nodeStateFilter = z.enum(NODE_STATE_FILTERS, { error: `must be one of ${NODE_STATE_FILTERS.join(", ")}` });

export const listNodesInput = z.strictObject({
  tenantId: tenantIdField,
  poolId: poolIdField,
  state: withDefault(nodeStateFilter, "active"),
  // SPEC I3: only the nodes whose attestation reads as this state
  attestation: optional(z.enum(ATTESTATION_STATES, { error: `must be one of ${ATTESTATION_STATES.join(", ")}` })),
  limit: withDefault(boundedInt(1, 200), 100),
  cursor: optional(patternString(31, NODE_ID_PATTERN)),
});

export const getNodeInput = z.strictObject({ tenantId: tenantIdField, nodeId: nodeIdField });

export const revokeNodeInput = z.strictObject({ tenantId: tenantIdField, nodeId: nodeIdField, reason: optional(reasonField) });

export const getInventoryInput = z.strictObject({ tenantId: tenantIdField, nodeId: nodeIdField, snapshotId: optional(snapshotIdField) });

export const listInventoryInput = z.strictObject({
  tenantId: tenantIdField,
  nodeId: nodeIdField,
  limit: withDefault(boundedInt(1, 200), 50),
  cursor: optional(patternString(30, SNAPSHOT_ID_PATTERN)),
});

/** nodes/renew: a new CSR (PEM); its signature must verify, a new key is allowed. */
export const renewNodeInput = z.strictObject({ csr: csrField });

export type ListNodesInput = z.output<typeof listNodesInput>;
