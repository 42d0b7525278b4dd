import type { Figures } from "./figures";
import { printTable, type Row } from "./report";

/** How to drive one scenario: the app over HTTP, and whichever floors it has. */
export interface Runs {
  http: () => Promise<Figures>;
  floor?: () => Promise<Figures>;
  httpFloor?: () => Promise<Figures>;
  nextFloor?: () => Promise<Figures>;
}

/** Runs the app, then each floor, one after another (never side by side on two cores); adds and prints the row. */
export async function measureRow(rows: Row[], where: Pick<Row, "size" | "rows" | "scenario" | "connections">, runs: Runs): Promise<void> {
  const row: Row = { ...where, http: await runs.http() };
  if (runs.floor) row.floor = await runs.floor();
  if (runs.httpFloor) row.httpFloor = await runs.httpFloor();
  if (runs.nextFloor) row.nextFloor = await runs.nextFloor();
  rows.push(row);
  printTable([row], { header: false });
}
