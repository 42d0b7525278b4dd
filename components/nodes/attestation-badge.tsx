import type { NodeAttestationJson } from "@/lib/nodes/node-attestation";

// SPEC I3: how a node's attestation reads, one badge in the list and on its page.
const BADGE = { trusted: "badge-approved", untrusted: "badge-rejected", stale: "badge-pending" } as const;
const TITLE = {
  trusted: "its last quote matched a known boot state of the pool",
  untrusted: "its last quote matched no known boot state of the pool",
  stale: "no quote within the maximum age, in a pool that requires a known boot",
} as const;

export function AttestationBadge({ attestation }: { attestation: NodeAttestationJson }) {
  if (!attestation) return <span className="muted">not attested</span>;
  return (
    <span className={`badge ${BADGE[attestation.state]}`} title={TITLE[attestation.state]} data-testid="attestation-state">
      {attestation.state}
    </span>
  );
}
