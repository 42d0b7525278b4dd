import type pg from "pg";
import { listJoinRequestsSql } from "@/server/join-requests/list-join-requests";
import { HOT } from "./workload/dataset";

/** EXPLAIN (ANALYZE, BUFFERS) of the list statement: the default page and a deep `all` page. */
export async function explainList(client: pg.Client, cursor: string): Promise<Record<string, string>> {
  const plans: Record<string, string> = {};
  for (const [name, state, after] of [
    ["pending", "pending", undefined],
    ["all, deep cursor", "all", cursor],
  ] as const) {
    const sql = listJoinRequestsSql({ pool: HOT, state, pageSize: 101, cursor: after, now: new Date() });
    const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql.text}`, sql.values as unknown[]);
    plans[name] = rows.map((row) => row["QUERY PLAN"]).join("\n");
    console.log(`\nEXPLAIN (ANALYZE, BUFFERS) list ${name}:\n${plans[name]}`);
  }
  return plans;
}
