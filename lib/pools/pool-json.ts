import { z } from "zod";
import { timestamp } from "@/lib/wire/fields";
import { approvalsRequiredField } from "@/lib/join-requests/approval-json";

// A pool as pools/update answers it.
export const poolJson = z.strictObject({
  id: z.string(),
  tenantId: z.string(),
  siteId: z.string(),
  name: z.string(),
  requiresTpm: z.boolean(),
  approvalsRequired: approvalsRequiredField,
  archivedAt: timestamp.nullable(),
  createdAt: timestamp,
});
export type PoolJson = z.infer<typeof poolJson>;

export const updatePoolResponse = z.strictObject({ pool: poolJson });

export function toPoolJson(row: Omit<PoolJson, "archivedAt" | "createdAt"> & { archivedAt: Date | null; createdAt: Date }): PoolJson {
  return {
    id: row.id,
    tenantId: row.tenantId,
    siteId: row.siteId,
    name: row.name,
    requiresTpm: row.requiresTpm,
    approvalsRequired: row.approvalsRequired,
    archivedAt: row.archivedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
