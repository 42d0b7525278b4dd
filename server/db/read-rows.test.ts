import { describe, expect, it } from "vitest";
import { createScratchDatabase } from "@/test/api/scratch-database";
import { getDb, postgresPoolOf, type Db } from "./client";
import { Prisma } from "./generated/client";
import { readRows } from "./read-rows";
import { writeStatement } from "./write-statement";

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
    expect(postgresPoolOf(db)).not.toBeNull();
    const viaPrisma = await db.$queryRaw<Record<string, unknown>[]>(sql);
    // bytea: a Buffer from pg, a plain Uint8Array from Prisma, the same bytes
    const bytesAsArrays = (rows: Record<string, unknown>[]) => rows.map((row) => ({ ...row, bytes: [...(row.bytes as Uint8Array)] }));
    expect(bytesAsArrays(viaPg)).toEqual(bytesAsArrays(viaPrisma));
    expect(viaPg[0]).toMatchObject({ at, never: null, ints: [1, 2], count: 7, json: { at: "2026-12-07T08:00:00.123+00:00" } });
    expect(Buffer.from(viaPg[0]!.bytes as Uint8Array)).toEqual(Buffer.from([0, 255, 16]));
  });

  it("a client of another database (the seed's, a test's) is read and written through itself, never the process's pool", async () => {
    const processDb = await getDb();
    const scratch = await createScratchDatabase();
    try {
      const other = scratch.db as unknown as Db;
      await readRows(processDb, Prisma.sql`SELECT 1`); // the process's pool is open
      const [read] = await readRows<{ name: string }>(other, Prisma.sql`SELECT current_database() AS name`);
      expect(read!.name).toBe(new URL(scratch.url).pathname.slice(1));
      await other.$executeRaw`CREATE TABLE written_here (n int)`;
      expect(await writeStatement(other, Prisma.sql`INSERT INTO written_here VALUES (1), (2)`)).toBe(2);
      expect(await other.$queryRaw<{ n: number }[]>`SELECT n FROM written_here ORDER BY n`).toEqual([{ n: 1 }, { n: 2 }]);
      // the transaction's own client too: its statements stay in the transaction
      await expect(
        other.$transaction(async (tx) => {
          expect(postgresPoolOf(tx)).toBeNull();
          await writeStatement(tx, Prisma.sql`INSERT INTO written_here VALUES (3)`);
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await other.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM written_here`).toEqual([{ n: 2 }]);
    } finally {
      await scratch.drop();
    }
  });
});
