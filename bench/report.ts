import type { Figures } from "./figures";

export interface Row {
  size: number;
  rows: number;
  scenario: string;
  connections: number;
  http: Figures;
  floor?: Figures;
}

const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? "-" : n.toFixed(digits));

export function printTable(rows: Row[], options: { header: boolean }): void {
  const lines: string[][] = [];
  if (options.header) {
    lines.push(["rows", "scenario", "conns", "req/s", "p50 ms", "p99 ms", "errors", "floor req/s", "floor p50", "floor p99", "p50 ×floor"]);
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
    ]);
  }
  const widths = lines[0]!.map((_, column) => Math.max(...lines.map((line) => line[column]!.length)));
  for (const line of lines) console.log(line.map((cell, column) => cell.padStart(widths[column]!)).join("  "));
}
