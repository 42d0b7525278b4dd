import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { Prisma } from "../db/generated/client";
import { effectiveStateSql, storedLivePastExpirySql } from "./effective-state-sql";
import { effectiveState } from "@/lib/join-requests/state-machine";
import { JOIN_REQUEST_STATES } from "@/lib/validations/join-requests";

const db = await getDb();
const now = new Date("2026-12-06T12:00:00.000Z");
const expiries = {
  "before now": new Date(now.getTime() - 1),
  "at now": now,
  "after now": new Date(now.getTime() + 1),
};

// Every stored state × expiry on either side of (and at) now, evaluated by
// PostgreSQL through the fragments and by effectiveState() in TypeScript.
const cases = JOIN_REQUEST_STATES.flatMap((stored) => Object.entries(expiries).map(([when, expiresAt]) => ({ stored, when, expiresAt })));

describe("effectiveStateSql agrees with effectiveState", () => {
  it.each(cases)("stored $stored, expiry $when", async ({ stored, expiresAt }) => {
    const columns = JOIN_REQUEST_STATES.map((state) => Prisma.sql`(${effectiveStateSql(state, now)}) AS ${Prisma.raw(`"${state}"`)}`);
    const [row] = await db.$queryRaw<(Record<string, boolean> & { pastExpiry: boolean })[]>`
      SELECT ${Prisma.join(columns)}, (${storedLivePastExpirySql(now)}) AS "pastExpiry"
      FROM (SELECT ${stored}::join_request_state AS state, ${expiresAt}::timestamptz AS expires_at) join_requests`;
    const expected = effectiveState({ state: stored, expiresAt }, now);
    for (const state of JOIN_REQUEST_STATES) expect(row![state], state).toBe(state === expected);
    expect(row!.pastExpiry).toBe(expected === "expired" && stored !== "expired");
  });

  it("reads the database's clock when given SQL for now", async () => {
    const [row] = await db.$queryRaw<{ live: boolean }[]>`
      SELECT (${effectiveStateSql("pending", Prisma.sql`now()`)}) AS live
      FROM (SELECT 'pending'::join_request_state AS state, now() + interval '1 hour' AS expires_at) join_requests`;
    expect(row!.live).toBe(true);
  });
});
