import "server-only";
import type { Db } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import { readRows } from "../../db/read-rows";
import { readStoredBootStates, type BootState } from "@/lib/pools/boot-states";

/** SPEC I2: what a pool says about the boot of the machines that join it. */
export interface PoolBootPolicy {
  states: BootState[];
  requireKnownBoot: boolean;
}

export const NO_BOOT_POLICY: PoolBootPolicy = { states: [], requireKnownBoot: false };

/** The pool's known boot states and whether it requires one (none for an unclaimed site request). */
export async function readPoolBootPolicy(db: Db, poolId: string | undefined): Promise<PoolBootPolicy> {
  if (!poolId) return NO_BOOT_POLICY;
  // Through pg (readRows): this is one of the reads of every join of a boot storm.
  const [pool] = await readRows<{ bootStates: unknown; requireKnownBoot: boolean }>(
    db,
    Prisma.sql`SELECT boot_states AS "bootStates", require_known_boot AS "requireKnownBoot" FROM pools WHERE id = ${poolId}`,
  );
  if (!pool) return NO_BOOT_POLICY;
  return { states: readStoredBootStates(pool.bootStates), requireKnownBoot: pool.requireKnownBoot };
}
