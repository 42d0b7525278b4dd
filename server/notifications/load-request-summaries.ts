import "server-only";
import type { Db } from "../db/client";
import { env } from "../env";
import { effectiveState } from "@/lib/join-requests/state-machine";
import type { RequestSummary } from "@/lib/notifications/mail-message";
import { consoleLink, requestPagePath } from "@/lib/url/console-paths";

export interface RequestDetails extends RequestSummary {
  decidedBy: string | null;
  reason: string | null;
}

/**
 * What mails say about each of `requestIds` as it is now: the machine, the
 * pool, its state (expiry read at `now`), who approved it (a user by their
 * address, a service key by its id) and the link to its page on the console's
 * own origin (NEXTAUTH_URL). A request gone meanwhile is left out.
 */
export async function loadRequestSummaries(db: Db, requestIds: string[], now: Date): Promise<Map<string, RequestDetails>> {
  if (requestIds.length === 0) return new Map();
  const requests = await db.joinRequest.findMany({
    where: { id: { in: requestIds }, poolId: { not: null } },
    select: {
      id: true,
      poolId: true,
      hostname: true,
      serialNumber: true,
      reasons: true,
      state: true,
      expiresAt: true,
      createdAt: true,
      approvalsRequired: true,
      decidedBy: true,
      reason: true,
      approvals: { select: { principal: true }, orderBy: { approvedAt: "asc" } },
    },
  });
  const poolIds = [...new Set(requests.map((request) => request.poolId!))];
  const principals = [...new Set(requests.flatMap((request) => [...request.approvals.map((a) => a.principal), request.decidedBy ?? ""]))];
  const [pools, users] = await Promise.all([
    db.pool.findMany({ where: { id: { in: poolIds } }, select: { id: true, name: true } }),
    db.user.findMany({ where: { id: { in: principals } }, select: { id: true, email: true } }),
  ]);
  const poolName = new Map(pools.map((pool) => [pool.id, pool.name]));
  const who = (principal: string) => users.find((user) => user.id === principal)?.email ?? principal;
  const origin = env().NEXTAUTH_URL;
  return new Map(
    requests.map((request) => {
      const poolId = request.poolId!;
      return [
        request.id,
        {
          requestId: request.id,
          hostname: request.hostname,
          serialNumber: request.serialNumber,
          reasons: request.reasons,
          poolName: poolName.get(poolId) ?? poolId,
          createdAt: request.createdAt,
          state: effectiveState(request, now),
          approvedBy: request.approvals.map((approval) => who(approval.principal)),
          approvalsRequired: request.approvalsRequired,
          link: consoleLink(origin, requestPagePath(poolId, request.id)),
          decidedBy: request.decidedBy ? who(request.decidedBy) : null,
          reason: request.reason,
        },
      ];
    }),
  );
}
