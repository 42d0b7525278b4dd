import "server-only";
import type { Db, Tx } from "../db/client";
import { env } from "../env";
import type { AttestationClock, AttestationReading } from "@/lib/nodes/node-attestation";

/** SPEC I3: the clock a node's attestation is read at, with the deployment's maximum age. */
export function attestationClock(now: Date): AttestationClock {
  return { now, maxAgeSeconds: env().BC_ATTESTATION_MAX_AGE_SECONDS };
}

/** The clock and the pool's requireKnownBoot: what toNodeJson needs to tell stale from trusted. */
export function attestationReadingOf(pool: { requireKnownBoot: boolean }, now: Date): AttestationReading {
  return { ...attestationClock(now), requireKnownBoot: pool.requireKnownBoot };
}

/** attestationReadingOf for a pool known by id only (a node's). */
export async function attestationReading(db: Db | Tx, poolId: string, now: Date): Promise<AttestationReading> {
  const pool = await db.pool.findUnique({ where: { id: poolId }, select: { requireKnownBoot: true } });
  return attestationReadingOf({ requireKnownBoot: pool?.requireKnownBoot ?? false }, now);
}
