import "server-only";
import type { Db } from "../db/client";
import type { JoinRequest } from "../db/generated/client";
import type { PoolFacts } from "../places/find-pool";
import { isVisibleToPool } from "@/lib/join-requests/state-machine";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { JOIN_REQUEST_ID_PATTERN } from "@/lib/validations/fields";
import { toJoinRequestJson } from "./join-request-json";
import { readJoinRequestSql } from "./transition-statement";

/** One request as `pool` sees it (its own, or its site's unclaimed one); null otherwise. */
export async function findJoinRequest(input: { db: Db; pool: PoolFacts; requestId: string; now: Date }): Promise<JoinRequestJson | null> {
  const { db, pool, requestId, now } = input;
  if (!JOIN_REQUEST_ID_PATTERN.test(requestId)) return null;
  const [row] = await db.$queryRaw<JoinRequest[]>(readJoinRequestSql(requestId));
  if (!row || !isVisibleToPool(row, pool)) return null;
  return toJoinRequestJson(row, now);
}
