import "server-only";
import { databaseCondition } from "../api/database-condition";
import { isFailoverSign } from "../db/failover-signs";

// Readiness (docs/operations.md "Metrics and health"): may this process take traffic?
// Only if the database answers, every committed migration is recorded as
// finished, and the configuration is complete. Each check says "ok" or what
// is wrong, so a person reading the probe's answer knows where to look.

export type CheckName = "database" | "migrations" | "configuration";

export interface Readiness {
  ready: boolean;
  checks: Record<CheckName, string>;
}

/** Where the checks read from; the real ones are in readiness-sources.ts, tests pass fakes. */
export interface ReadinessSources {
  /** answers when the database does; throws its error otherwise */
  ping(): Promise<void>;
  /** migrations recorded as finished (and not rolled back) in `_prisma_migrations` */
  appliedMigrations(): Promise<string[]>;
  /** the committed migration folders' names */
  committedMigrations(): Promise<string[]>;
  /** the first thing missing or wrong in the configuration, if any */
  configurationProblem(): string | undefined;
}

const MAX_NAMED = 3;

export async function checkReadiness(sources: ReadinessSources): Promise<Readiness> {
  const configuration = sources.configurationProblem() ?? "ok";
  let database = "ok";
  let migrations = "not checked: the database is unreachable";
  try {
    await sources.ping();
  } catch (error) {
    // Behind HAProxy's leader port a leader change shows as connections closed at once or a
    // read-only member (server/db/failover-signs.ts); a database that is down refuses them.
    if (isFailoverSign(error)) {
      database = "failing over";
      migrations = "not checked: the database is failing over";
    } else database = `unreachable: ${databaseCondition(error) ? "the database does not answer" : describeError(error)}`;
  }
  if (database === "ok") {
    try {
      migrations = describeMissing(await sources.committedMigrations(), await sources.appliedMigrations());
    } catch (error) {
      migrations = `could not be read: ${describeError(error)}`;
    }
  }
  const checks = { database, migrations, configuration };
  return { ready: Object.values(checks).every((check) => check === "ok"), checks };
}

export function describeMissing(committed: string[], applied: string[]): string {
  const done = new Set(applied);
  const missing = committed.filter((name) => !done.has(name));
  if (missing.length === 0) return "ok";
  const named = missing.slice(0, MAX_NAMED).join(", ");
  const more = missing.length > MAX_NAMED ? ` and ${missing.length - MAX_NAMED} more` : "";
  return `${missing.length} not applied: ${named}${more} (run npm run db:migrate)`;
}

/** A code (ECONNREFUSED, 28P01…) says what went wrong without a host name, a path or a stack. */
function describeError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : error instanceof Error ? error.name : "unknown error";
}
