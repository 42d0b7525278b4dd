import type { JoinRequest } from "@/server/db/generated/client";
import { listJoinRequestsSql, listPage } from "@/server/join-requests/list-join-requests";
import { toJoinRequestJson } from "@/server/join-requests/join-request-json";
import { approveJoinRequestMethod, listJoinRequestsMethod } from "@/server/methods/join-requests-methods";
import { TTL_DEFAULT_SECONDS, type StateFilter } from "@/lib/validations/join-requests";
import { floorApproveStatements } from "./floor-approve";
import { poolFloorMethod } from "./floor-pool-method";

/** joinRequests/list on the floors: the app's statement (its SQL builder) and its page. */
export const listJoinRequestsFloor = poolFloorMethod(listJoinRequestsMethod.permission, async ({ db, input, pool, now }) => {
  const limit = typeof input.limit === "number" ? input.limit : 100;
  const state = (input.state ?? "pending") as StateFilter;
  const cursor = typeof input.cursor === "string" ? input.cursor : undefined;
  const sql = listJoinRequestsSql({ pool, state, pageSize: limit + 1, cursor, now });
  const { rows } = await db.query<JoinRequest>(sql.text, sql.values as unknown[]);
  return listPage(rows, limit, now);
});

/** joinRequests/approve on the floors: the app's statements (floor-approve.ts) and its JSON. */
export const approveJoinRequestFloor = poolFloorMethod(approveJoinRequestMethod.permission, async ({ db, input, principal, pool, now }) => {
  const client = await db.connect();
  try {
    const row = await floorApproveStatements(client, {
      pool,
      requestId: String(input.requestId),
      ttlSeconds: typeof input.ttlSeconds === "number" ? input.ttlSeconds : TTL_DEFAULT_SECONDS,
      reason: typeof input.reason === "string" ? input.reason : undefined,
      actor: principal.id,
      now,
    });
    return toJoinRequestJson(row, now);
  } finally {
    client.release();
  }
});
