import { z } from "zod";
import { boundedInt, patternString, poolIdField, tenantIdField, withDefault } from "./fields";

// joinTokens/create|list|revoke, decided on compute-pool/{poolId}.

export const JOIN_TOKEN_MAX_USES_LIMIT = 10_000;
export const JOIN_TOKEN_TTL_MIN_SECONDS = 60;
export const JOIN_TOKEN_TTL_MAX_SECONDS = 2_592_000; // 30 days
export const JOIN_TOKEN_TTL_DEFAULT_SECONDS = 3_600;
// The `<id>` of `bcjt_<id>.<secret>` (server/auth/credentials.ts).
export const JOIN_TOKEN_ID_PATTERN = /^[0-9a-z]{1,64}$/;

export const createJoinTokenInput = z.strictObject({
  tenantId: tenantIdField,
  poolId: poolIdField,
  maxUses: withDefault(boundedInt(1, JOIN_TOKEN_MAX_USES_LIMIT), 1),
  ttlSeconds: withDefault(boundedInt(JOIN_TOKEN_TTL_MIN_SECONDS, JOIN_TOKEN_TTL_MAX_SECONDS), JOIN_TOKEN_TTL_DEFAULT_SECONDS),
});

export const listJoinTokensInput = z.strictObject({
  tenantId: tenantIdField,
  poolId: poolIdField,
});

export const revokeJoinTokenInput = z.strictObject({
  tenantId: tenantIdField,
  poolId: poolIdField,
  tokenId: patternString(64, JOIN_TOKEN_ID_PATTERN),
});

export type CreateJoinTokenInput = z.output<typeof createJoinTokenInput>;
export type RevokeJoinTokenInput = z.output<typeof revokeJoinTokenInput>;
