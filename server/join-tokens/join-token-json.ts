import "server-only";
import type { JoinToken } from "../db/generated/client";
import type { JoinTokenJson } from "@/lib/join-tokens/join-token-json";

/** The columns a join token is shown with: never its secret hash. */
export const JOIN_TOKEN_PUBLIC_COLUMNS = {
  id: true,
  poolId: true,
  maxUses: true,
  uses: true,
  expiresAt: true,
  revokedAt: true,
  createdAt: true,
  createdBy: true,
} as const;

export function toJoinTokenJson(token: Omit<JoinToken, "secretHash" | "tenantId">): JoinTokenJson {
  return {
    id: token.id,
    poolId: token.poolId,
    maxUses: token.maxUses,
    uses: token.uses,
    expiresAt: token.expiresAt.toISOString(),
    revokedAt: token.revokedAt?.toISOString() ?? null,
    createdAt: token.createdAt.toISOString(),
    createdBy: token.createdBy,
  };
}
