import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";

const REASON_LABELS: Record<string, string> = {
  "placeholder-hardware-id": "placeholder hardware id",
  "unknown-to-discovery": "unknown to discovery",
  "tpm-ek-not-allowed": "TPM EK not allowed",
  "machine-already-joined": "machine already joined",
  "hostname-in-use": "hostname in use",
  "boot-state-unknown": "boot state unknown",
};

export function StateBadge({ state }: { state: JoinRequestJson["state"] }) {
  return <span className={`badge badge-${state}`}>{state}</span>;
}

export function ReasonBadges({ reasons }: { reasons: JoinRequestJson["reasons"] }) {
  return (
    <span style={{ display: "inline-flex", flexWrap: "wrap", gap: "0.25rem" }}>
      {reasons.map((reason) => (
        <span key={reason} className="badge badge-reason" title={reason}>
          {REASON_LABELS[reason] ?? reason}
        </span>
      ))}
    </span>
  );
}

/** An unclaimed site request: any pool of the site may claim it by deciding. */
export function SiteRequestBadge({ request }: { request: Pick<JoinRequestJson, "poolId" | "siteId"> }) {
  if (request.poolId !== null) return null;
  return (
    <span className="badge badge-site" title={`Enrolled at site ${request.siteId} without a pool; deciding claims it for this pool.`}>
      unclaimed site request
    </span>
  );
}

export const shortHash = (hex: string | null) => (hex ? `${hex.slice(0, 12)}…` : null);
