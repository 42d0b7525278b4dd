import { NODE_STATE_FILTERS, type NodeStateFilter } from "@/lib/validations/nodes";
import { NODE_ID_PATTERN } from "@/lib/validations/fields";
import { ATTESTATION_STATES, type AttestationState } from "@/lib/nodes/node-attestation";
import { nodePagePath } from "@/lib/url/console-paths";

// The nodes list's view lives in the URL: ?state=active|revoked|all&attestation=trusted|untrusted|stale&cursor=node_…

export interface NodeListView {
  state: NodeStateFilter;
  /** SPEC I3: only the nodes whose attestation reads as this; null: any */
  attestation: AttestationState | null;
  cursor: string | null;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export function readNodeListView(params: Record<string, string | string[] | undefined>): NodeListView {
  const state = first(params.state);
  const attestation = first(params.attestation);
  const cursor = first(params.cursor);
  return {
    state: (NODE_STATE_FILTERS as readonly string[]).includes(state ?? "") ? (state as NodeStateFilter) : "active",
    attestation: (ATTESTATION_STATES as readonly string[]).includes(attestation ?? "") ? (attestation as AttestationState) : null,
    cursor: cursor && NODE_ID_PATTERN.test(cursor) ? cursor : null,
  };
}

export function nodeListHref(poolId: string, view: Partial<NodeListView> = {}): string {
  const query = new URLSearchParams();
  if (view.state && view.state !== "active") query.set("state", view.state);
  if (view.attestation) query.set("attestation", view.attestation);
  if (view.cursor) query.set("cursor", view.cursor);
  const search = query.toString();
  return `/pools/${encodeURIComponent(poolId)}/nodes${search ? `?${search}` : ""}`;
}

export const nodeHref = nodePagePath;
