import { z } from "zod";
import { timestamp } from "@/lib/wire/fields";
import { approvalsRequiredField } from "@/lib/join-requests/approval-json";
import { notificationModeField } from "@/lib/notifications/settings-schemas";
import { bootStateSchema, readStoredBootStates } from "./boot-states";

// A pool as pools/update answers it.
export const poolJson = z.strictObject({
  id: z.string(),
  tenantId: z.string(),
  siteId: z.string(),
  name: z.string(),
  requiresTpm: z.boolean(),
  approvalsRequired: approvalsRequiredField,
  // SPEC I2: the known boot states and whether a join must match one
  bootStates: z.array(bootStateSchema),
  requireKnownBoot: z.boolean(),
  // issue #39: what a decider who has not chosen hears, and who hears of a request still pending after escalateAfterMinutes
  notifyDefault: notificationModeField,
  escalateAfterMinutes: z.int().nullable(),
  escalationEmails: z.array(z.string()),
  archivedAt: timestamp.nullable(),
  createdAt: timestamp,
});
export type PoolJson = z.infer<typeof poolJson>;

export const updatePoolResponse = z.strictObject({ pool: poolJson });

type PoolRow = Omit<PoolJson, "archivedAt" | "createdAt" | "bootStates"> & {
  archivedAt: Date | null;
  createdAt: Date;
  bootStates: unknown;
};

export function toPoolJson(row: PoolRow): PoolJson {
  return {
    id: row.id,
    tenantId: row.tenantId,
    siteId: row.siteId,
    name: row.name,
    requiresTpm: row.requiresTpm,
    approvalsRequired: row.approvalsRequired,
    bootStates: readStoredBootStates(row.bootStates),
    requireKnownBoot: row.requireKnownBoot,
    notifyDefault: row.notifyDefault,
    escalateAfterMinutes: row.escalateAfterMinutes,
    escalationEmails: row.escalationEmails,
    archivedAt: row.archivedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
