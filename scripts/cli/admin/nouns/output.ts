import type { AdminOutcome } from "@/server/admin/admin-error";
import { text, type AdminContext, type OptionValues } from "./admin-command";

// What the admin CLI prints: a readable line or table, or with --json one
// JSON document (dates as RFC 3339). Never a secret, except the one bearer a
// create returns, once.

const toJson = (value: unknown) => JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? item.toString() : item), 2);

/** A create's or change's outcome: `created tenant acme`, `tenant acme: already so, nothing changed`. */
export function printOutcome(context: AdminContext, outcome: AdminOutcome, what: string, detail: Record<string, unknown>, extra?: string) {
  if (context.json) {
    context.print(toJson({ outcome, ...detail }));
    return;
  }
  const verb = { created: "created", changed: "changed", unchanged: "unchanged (already so)" }[outcome];
  context.print(outcome === "unchanged" ? `${what}: ${verb}, nothing written` : `${verb}: ${what}`);
  if (extra) context.print(extra);
}

export type Column<Row> = [header: string, cell: (row: Row) => string | null | undefined];

/** Rows as an aligned table (or a JSON array), or `none` when there are none. */
export function printTable<Row>(context: AdminContext, rows: Row[], columns: Column<Row>[], none: string, json: unknown = rows) {
  if (context.json) {
    context.print(toJson(json));
    return;
  }
  if (rows.length === 0) {
    context.print(none);
    return;
  }
  const cells = [columns.map(([header]) => header), ...rows.map((row) => columns.map(([, cell]) => cell(row) ?? "—"))];
  const widths = columns.map((_, index) => Math.max(...cells.map((line) => [...line[index]!].length)));
  for (const line of cells)
    context.print(
      line
        .map((cell, index) => cell.padEnd(widths[index]!))
        .join("  ")
        .trimEnd(),
    );
}

export const at = (date: Date | string | null | undefined) => (date ? new Date(date).toISOString() : null);

/** Rows one readable line each (or a JSON array), or `none` when there are none. */
export function printLines<Row>(context: AdminContext, rows: Row[], line: (row: Row) => string, none: string) {
  if (context.json) context.print(toJson(rows));
  else context.print(rows.length ? rows.map(line).join("\n") : none);
}

/** A list verb's `--limit` and `--cursor`, as the list functions take them (their schemas check them). */
export function pageOptions(values: OptionValues): { limit: number | undefined; cursor: string | undefined } {
  const limit = text(values, "limit");
  return { limit: limit === undefined ? undefined : Number(limit), cursor: text(values, "cursor") };
}

/** One page of a list as a table (with --json the page itself), then where the next page starts. */
export function printPage<Row>(context: AdminContext, page: { nextCursor?: string }, rows: Row[], columns: Column<Row>[], none: string) {
  printTable(context, rows, columns, none, page);
  if (!context.json && page.nextCursor) context.print(`more: --cursor ${page.nextCursor}`);
}
