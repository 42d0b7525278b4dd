import type { Figures } from "./figures";

export interface Row {
  size: number;
  rows: number;
  scenario: string;
  connections: number;
  http: Figures;
  /** the same SQL straight through `pg`, no HTTP */
  floor?: Figures;
  /** a bare node:http server sending the same SQL and writing the same bytes (bench/http-floor) */
  httpFloor?: Figures;
  /** the HTTP floor's handlers in a route handler of the app (server/bench-floor): the framework's cost, none of ours */
  nextFloor?: Figures;
}

const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? "-" : n.toFixed(digits));

export function printTable(rows: Row[], options: { header: boolean }): void {
  const lines: string[][] = [];
  if (options.header) {
    lines.push([
      ...["rows", "scenario", "conns", "req/s", "p50 ms", "p99 ms", "errors"],
      ...["pg floor req/s", "pg floor p50", "pg floor p99", "p50 ×pg floor"],
      ...["http floor req/s", "http floor p50", "http floor p99", "p50 ×http floor", "% of http floor"],
      ...["next floor req/s", "next floor p50", "next floor p99", "p50 ×next floor", "% of next floor"],
    ]);
  }
  for (const row of rows) {
    lines.push([
      row.rows.toLocaleString("en"),
      row.scenario,
      String(row.connections),
      fmt(row.http.throughput, 0),
      fmt(row.http.p50Ms, 2),
      fmt(row.http.p99Ms, 2),
      String(row.http.errors),
      fmt(row.floor?.throughput, 0),
      fmt(row.floor?.p50Ms, 2),
      fmt(row.floor?.p99Ms, 2),
      row.floor ? fmt(row.http.p50Ms / row.floor.p50Ms, 2) : "-",
      fmt(row.httpFloor?.throughput, 0),
      fmt(row.httpFloor?.p50Ms, 2),
      fmt(row.httpFloor?.p99Ms, 2),
      row.httpFloor ? fmt(row.http.p50Ms / row.httpFloor.p50Ms, 2) : "-",
      row.httpFloor ? `${fmt((100 * row.http.throughput) / row.httpFloor.throughput, 0)}%` : "-",
      fmt(row.nextFloor?.throughput, 0),
      fmt(row.nextFloor?.p50Ms, 2),
      fmt(row.nextFloor?.p99Ms, 2),
      row.nextFloor ? fmt(row.http.p50Ms / row.nextFloor.p50Ms, 2) : "-",
      row.nextFloor ? `${fmt((100 * row.http.throughput) / row.nextFloor.throughput, 0)}%` : "-",
    ]);
  }
  const widths = lines[0]!.map((_, column) => Math.max(...lines.map((line) => line[column]!.length)));
  for (const line of lines) console.log(line.map((cell, column) => cell.padStart(widths[column]!)).join("  "));
}
