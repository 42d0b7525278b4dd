import "server-only";
import type { Db } from "../db/client";
import type { PoolFacts } from "../places/find-pool";
import type { JoinTokenJson } from "@/lib/join-tokens/join-token-json";
import { JOIN_TOKEN_PUBLIC_COLUMNS, toJoinTokenJson } from "./join-token-json";

/** The pool's join tokens, newest first, revoked and expired ones included; never a secret. */
export async function listJoinTokens(input: { db: Db; pool: PoolFacts }): Promise<{ joinTokens: JoinTokenJson[] }> {
  const tokens = await input.db.joinToken.findMany({
    where: { poolId: input.pool.id, tenantId: input.pool.tenantId },
    select: JOIN_TOKEN_PUBLIC_COLUMNS,
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
  });
  return { joinTokens: tokens.map(toJoinTokenJson) };
}
