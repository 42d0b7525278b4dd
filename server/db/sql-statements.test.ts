import { describe, expect, it } from "vitest";
import { splitSqlStatements } from "./sql-statements";

describe("splitSqlStatements", () => {
  it("ends a statement at a line ending in ';', keeping multi-line statements whole, with their first line", () => {
    const sql = [
      "-- bc:no-transaction",
      "",
      "DROP INDEX CONCURRENTLY IF EXISTS a_idx;",
      "-- the index the list query needs;",
      "CREATE INDEX CONCURRENTLY IF NOT EXISTS a_idx",
      "  ON a (x, y);  ",
      "VACUUM a",
    ].join("\r\n");
    expect(splitSqlStatements(sql)).toEqual([
      { sql: "DROP INDEX CONCURRENTLY IF EXISTS a_idx;", line: 3 },
      { sql: "CREATE INDEX CONCURRENTLY IF NOT EXISTS a_idx\n  ON a (x, y);", line: 5 },
      { sql: "VACUUM a", line: 7 },
    ]);
  });

  it("does not split at a ';' inside a line, and drops chunks that are only comments", () => {
    expect(splitSqlStatements("SELECT ';' AS a; SELECT 2;\n-- trailing note;\n\n")).toEqual([
      { sql: "SELECT ';' AS a; SELECT 2;", line: 1 },
    ]);
  });
});
