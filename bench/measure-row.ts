import type { Figures } from "./figures";
import { printTable, type Row } from "./report";

/** How to drive one scenario: the app over HTTP, and whichever floors it has. */
export interface Runs {
  http: () => Promise<Figures>;
  floor?: () => Promise<Figures>;
  httpFloor?: () => Promise<Figures>;
  nextFloor?: () => Promise<Figures>;
}

/**
 * Runs the app, then each floor, one after another (never side by side on two
 * cores); adds and prints the row. With `warmUp`, a row that compares sides
 * runs each side once unmeasured just before its measured run: a side that
 * sat idle while the others ran starts cold (its pool's connections closed
 * after 10 idle seconds, its code paths cooled by the others'), and the app,
 * run first after each change of scenario, paid for that alone. Measured on
 * 2026-12-08 at 32 connections, list pending, one run after another: the app
 * 228, 290, 300, 290, 312 req/s, its Next.js floor between them 327, 326, 314, 297.
 */
export async function measureRow(
  rows: Row[],
  where: Pick<Row, "size" | "rows" | "scenario" | "connections">,
  runs: Runs,
  { warmUp }: { warmUp: boolean },
): Promise<void> {
  const compared = Boolean(runs.floor || runs.httpFloor || runs.nextFloor);
  const measured = async (run: () => Promise<Figures>) => {
    if (warmUp && compared) await run();
    return run();
  };
  const row: Row = { ...where, http: await measured(runs.http) };
  if (runs.floor) row.floor = await measured(runs.floor);
  if (runs.httpFloor) row.httpFloor = await measured(runs.httpFloor);
  if (runs.nextFloor) row.nextFloor = await measured(runs.nextFloor);
  rows.push(row);
  printTable([row], { header: false });
}
