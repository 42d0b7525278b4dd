import "server-only";
import type { Db } from "../db/client";
import type { NotificationMode, Pool, Prisma } from "../db/generated/client";
import { readStoredBootStates, type BootState } from "@/lib/pools/boot-states";
import { AdminError, type AdminOutcome } from "./admin-error";
import { recordAdminChange, type AdminActor } from "./record-admin-change";

export interface PoolSettings {
  /** SPEC H1 */
  approvalsRequired?: number;
  /** SPEC I2: the whole list, replacing the pool's (validated by bootStatesField) */
  bootStates?: BootState[];
  requireKnownBoot?: boolean;
  /** issue #39: what a decider who has not chosen hears */
  notifyDefault?: NotificationMode;
  /** issue #39: minutes until the escalation list hears of a pending request; null: no escalation */
  escalateAfterMinutes?: number | null;
  /** lowercased and de-duplicated (escalationEmailsField) */
  escalationEmails?: string[];
}

/**
 * SPEC H1, I2, issue #39: changes a pool's settings (approvals required, known
 * boot states, whether a known boot is required, the notification default and
 * escalation), for pools/update and the
 * operator's command line. The pool's row is locked while it is read and
 * written, so two concurrent updates apply one after the other; `bootStates`
 * replaces the whole list (the last writer's list wins, and the event shows
 * what it replaced). A change that leaves everything as it was is
 * "unchanged", with no event. Requests already waiting keep the count they
 * were deferred with. `tenantId` undefined: the pool wherever it is (pool ids
 * are unique across the control plane; the command line names only the pool).
 */
export async function updatePoolSettings(
  args: {
    db: Db;
    actor: AdminActor;
    now: Date;
    tenantId?: string;
    poolId: string;
  } & PoolSettings,
): Promise<{ outcome: AdminOutcome; pool: Pool }> {
  const { tenantId, poolId } = args;
  return args.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM pools WHERE id = ${poolId} FOR UPDATE`;
    const before = await tx.pool.findFirst({ where: { id: poolId, ...(tenantId ? { tenantId } : {}) } });
    if (!before) throw new AdminError(`pool ${poolId} not found${tenantId ? ` in tenant ${tenantId}` : ""}`, "NOT_FOUND");
    const after = {
      approvalsRequired: args.approvalsRequired ?? before.approvalsRequired,
      bootStates: args.bootStates ?? readStoredBootStates(before.bootStates),
      requireKnownBoot: args.requireKnownBoot ?? before.requireKnownBoot,
      notifyDefault: args.notifyDefault ?? before.notifyDefault,
      // null is a value here (escalation off): only undefined leaves it as it was
      escalateAfterMinutes: args.escalateAfterMinutes === undefined ? before.escalateAfterMinutes : args.escalateAfterMinutes,
      escalationEmails: args.escalationEmails ?? before.escalationEmails,
    };
    checkKnownBootSatisfiable(after);
    const previous = {
      approvalsRequired: before.approvalsRequired,
      bootStates: readStoredBootStates(before.bootStates),
      requireKnownBoot: before.requireKnownBoot,
      notifyDefault: before.notifyDefault,
      escalateAfterMinutes: before.escalateAfterMinutes,
      escalationEmails: before.escalationEmails,
    };
    const changed = (Object.keys(after) as (keyof typeof after)[]).filter(
      (key) => JSON.stringify(after[key]) !== JSON.stringify(previous[key]),
    );
    if (changed.length === 0) return { outcome: "unchanged", pool: before };
    const pool = await tx.pool.update({
      where: { id: poolId },
      data: { ...after, bootStates: after.bootStates as unknown as Prisma.InputJsonValue },
    });
    await recordAdminChange(tx, {
      actor: args.actor,
      noun: "pool",
      verb: "update",
      tenantId: before.tenantId,
      siteId: before.siteId,
      poolId,
      id: poolId,
      now: args.now,
      data: Object.fromEntries(changed.flatMap((key) => eventFields(key, after[key], previous[key]))),
    });
    return { outcome: "changed", pool };
  });
}

/** The event's new and previous value of one setting (approvalsRequired as text, as before I2). */
function eventFields(key: string, now: unknown, was: unknown): [string, string | boolean | object][] {
  const previousKey = `previous${key[0]!.toUpperCase()}${key.slice(1)}`;
  if (key === "approvalsRequired")
    return [
      [key, String(now)],
      [previousKey, String(was)],
    ];
  return [
    [key, now as object],
    [previousKey, was as object],
  ];
}

/** SPEC I2: a pool that requires a known boot must know one, else no join could ever match. */
function checkKnownBootSatisfiable(settings: { bootStates: BootState[]; requireKnownBoot: boolean }): void {
  if (settings.requireKnownBoot && settings.bootStates.length === 0) {
    const message = "cannot be true while the pool knows no boot state: add one to bootStates";
    throw new AdminError(`requireKnownBoot ${message}`, "INVALID_ARGUMENT", [{ field: "requireKnownBoot", message }]);
  }
}
