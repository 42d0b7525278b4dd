import "server-only";
import type { Db } from "../db/client";
import type { PoolFacts } from "../places/find-pool";
import { ApiError } from "../api/errors";
import type { JoinTokenJson } from "@/lib/join-tokens/join-token-json";
import { JOIN_TOKEN_PUBLIC_COLUMNS, toJoinTokenJson } from "./join-token-json";

/**
 * Revokes a join token of `pool`; revoking it again returns it unchanged.
 * Works on an archived pool (taking access away must stay possible).
 */
export async function revokeJoinToken(input: { db: Db; pool: PoolFacts; tokenId: string; now: Date }): Promise<JoinTokenJson> {
  const { db, pool, tokenId, now } = input;
  const where = { id: tokenId, poolId: pool.id, tenantId: pool.tenantId };
  await db.joinToken.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: now } });
  const token = await db.joinToken.findFirst({ where, select: JOIN_TOKEN_PUBLIC_COLUMNS });
  if (!token) throw new ApiError("NOT_FOUND", `join token ${tokenId} not found in pool ${pool.id}`);
  return toJoinTokenJson(token);
}
