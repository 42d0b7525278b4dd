import { z } from "zod";
import { timestamp } from "@/lib/wire/fields";

/** A join token as list/revoke return it: never its secret. */
export const joinTokenJson = z.strictObject({
  id: z.string(),
  poolId: z.string(),
  maxUses: z.int(),
  uses: z.int(),
  expiresAt: timestamp,
  revokedAt: timestamp.nullable(),
  createdAt: timestamp,
  createdBy: z.string(),
});
export type JoinTokenJson = z.infer<typeof joinTokenJson>;
