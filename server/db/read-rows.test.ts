import { describe, expect, it } from "vitest";
import { getDb, postgresPool } from "./client";
import { Prisma } from "./generated/client";
import { readRows } from "./read-rows";

// readRows sends a statement through pg rather than Prisma: the values must
// come out as $queryRaw gives them, for every kind of column its statements read.
describe("readRows", () => {
  it("goes through pg on PostgreSQL and reads every column kind as $queryRaw does", async () => {
    const db = await getDb();
    const at = new Date("2026-12-07T08:00:00.123Z");
    const sql = Prisma.sql`
      SELECT 'text' AS text, true AS flag, ${at}::timestamptz(3) AS at, NULL::timestamptz AS never,
        '\\x00ff10'::bytea AS bytes, json_build_object('at', ${at}::timestamptz(3), 'list', json_build_array(1, 'a')) AS json,
        '{"x":1}'::jsonb AS jsonb, ARRAY['a', 'b'] AS texts, ARRAY[1, 2]::int[] AS ints, 7::int AS count,
        'active'::node_state::text AS state`;
    const viaPg = await readRows<Record<string, unknown>>(db, sql);
    expect(postgresPool()).not.toBeNull();
    const viaPrisma = await db.$queryRaw<Record<string, unknown>[]>(sql);
    // bytea: a Buffer from pg, a plain Uint8Array from Prisma, the same bytes
    const bytesAsArrays = (rows: Record<string, unknown>[]) => rows.map((row) => ({ ...row, bytes: [...(row.bytes as Uint8Array)] }));
    expect(bytesAsArrays(viaPg)).toEqual(bytesAsArrays(viaPrisma));
    expect(viaPg[0]).toMatchObject({ at, never: null, ints: [1, 2], count: 7, json: { at: "2026-12-07T08:00:00.123+00:00" } });
    expect(Buffer.from(viaPg[0]!.bytes as Uint8Array)).toEqual(Buffer.from([0, 255, 16]));
  });
});
