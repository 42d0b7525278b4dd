import path from "node:path";

export type ConnectionTarget = { kind: "postgres"; url: string } | { kind: "pglite"; dir: string };

/**
 * Which database this process uses: PostgreSQL when DATABASE_URL is set,
 * otherwise the embedded PGlite database in BC_PGLITE_DIR (default
 * `<cwd>/.data/pglite`). The one place this decision is made.
 */
export function connectionTarget(env: Record<string, string | undefined> = process.env): ConnectionTarget {
  const url = env.DATABASE_URL?.trim();
  if (url) return { kind: "postgres", url };

  const dir = env.BC_PGLITE_DIR?.trim() || path.join(/*turbopackIgnore: true*/ process.cwd(), ".data", "pglite");
  // PGlite also takes `memory://…` (and `idb://…`) data directories; only
  // file-system paths are made absolute.
  return { kind: "pglite", dir: /^[a-z]+:\/\//.test(dir) ? dir : path.resolve(/*turbopackIgnore: true*/ dir) };
}
