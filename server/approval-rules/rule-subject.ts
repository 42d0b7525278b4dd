import "server-only";
import type { Db } from "../db/client";
import { Prisma, type JoinRequest } from "../db/generated/client";
import { entryMacsMatchSql } from "../attestation/attestors/discovery";
import { uuidKeyOf } from "../attestation/attestors/node-identity-keys";
import type { WithApprovals } from "../join-requests/approvals-column";
import { toJoinRequestJson } from "../join-requests/join-request-json";
import type { RuleSubject } from "@/lib/approval-rules/rule-variables";

type Discovery = NonNullable<RuleSubject["discovery"]>;

/**
 * What requests' rules are evaluated against (SPEC H2's variables): each
 * request, its credential, and its site's discovered-machine entry as the
 * discovery attestor matches one (SPEC G3: by UUID key, and a MAC when the
 * entry lists any). One query for all the requests (approvalRules/test reads
 * up to 10,000).
 */
export async function ruleSubjects(db: Db, requests: readonly (JoinRequest & WithApprovals)[], now: Date): Promise<RuleSubject[]> {
  const ids = requests.filter((request) => uuidKeyOf(request.systemUuid) !== null).map((request) => request.id);
  const entries =
    ids.length === 0
      ? []
      : await db.$queryRaw<(Discovery & { requestId: string })[]>(Prisma.sql`
          SELECT r.id AS "requestId", d.system_uuid AS "systemUuid", d.mac_addresses AS "macAddresses", d.assigned_pool_id AS "assignedPoolId"
          FROM join_requests r
          JOIN discovered_machines d ON d.site_id = r.site_id AND d.tenant_id = r.tenant_id AND d.system_uuid = lower(trim(r.system_uuid))
            AND ${entryMacsMatchSql(Prisma.sql`d.mac_addresses`, Prisma.sql`r.mac_addresses`)}
          WHERE r.id = ANY(${ids}::text[])`);
  const discoveryOf = new Map(entries.map(({ requestId, ...entry }) => [requestId, entry]));
  return requests.map((request) => ({
    request: toJoinRequestJson(request, now),
    credential: request.joinTokenId
      ? { kind: "join-token", id: request.joinTokenId }
      : { kind: "enrollment-key", id: request.enrollKeyId ?? "" },
    discovery: discoveryOf.get(request.id) ?? null,
    now,
  }));
}
