import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "../db/client";
import type { PoolFacts } from "../places/find-pool";
import { ApiError } from "../api/errors";
import { generateSecret, hashSecret } from "../auth/credentials";
import type { JoinTokenJson } from "@/lib/join-tokens/join-token-json";
import { JOIN_TOKEN_PUBLIC_COLUMNS, toJoinTokenJson } from "./join-token-json";

/**
 * A join token for `pool`: `maxUses` distinct machines (CSRs) may join with
 * it until `ttlSeconds` pass. The bearer `bcjt_<id>.<secret>` is returned
 * here and never again; only SHA-256(secret) is stored.
 */
export async function createJoinToken(input: {
  db: Db;
  pool: PoolFacts;
  maxUses: number;
  ttlSeconds: number;
  actor: string;
  now: Date;
}): Promise<JoinTokenJson & { bearer: string }> {
  const { db, pool, now } = input;
  if (pool.archivedAt) throw new ApiError("INVALID_STATE", `pool ${pool.id} is archived; it admits no joins`);
  const id = randomBytes(12).toString("hex");
  const secret = generateSecret();
  const token = await db.joinToken.create({
    data: {
      id,
      tenantId: pool.tenantId,
      poolId: pool.id,
      secretHash: hashSecret(secret),
      maxUses: input.maxUses,
      expiresAt: new Date(now.getTime() + input.ttlSeconds * 1000),
      createdAt: now,
      createdBy: input.actor,
    },
    select: JOIN_TOKEN_PUBLIC_COLUMNS,
  });
  return { ...toJoinTokenJson(token), bearer: `bcjt_${id}.${secret}` };
}
