import "server-only";
import type { ApprovalJson } from "@/lib/join-requests/approval-json";

// SPEC H1: a request's approvals, read with the request itself so that every
// statement returning requests (list, read, the transitions' RETURNING)
// returns them too, oldest first. The subquery names the request's `id`
// unqualified: it resolves to the outer row because join_request_approvals
// has no `id` column (whatever the outer query calls its rows).
export const APPROVALS_COLUMN = `(SELECT coalesce(jsonb_agg(jsonb_build_object('by', principal, 'at', approved_at, 'ttlSeconds', ttl_seconds)
    ORDER BY approved_at, principal), '[]'::jsonb) FROM join_request_approvals WHERE request_id = id) AS approvals`;

/** An approval as APPROVALS_COLUMN reads it (PostgreSQL writes the time in its own format). */
export interface StoredApproval {
  by: string;
  at: string | Date;
  ttlSeconds: number;
}

/** A request row read with JOIN_REQUEST_COLUMNS carries its approvals (rows written through Prisma's model do not). */
export interface WithApprovals {
  approvals?: StoredApproval[];
}

/** The approvals of a row on the wire, oldest first. */
export function approvalsJson(row: WithApprovals): ApprovalJson[] {
  return (row.approvals ?? []).map((approval) => ({
    by: approval.by,
    at: new Date(approval.at).toISOString(),
    ttlSeconds: approval.ttlSeconds,
  }));
}
