import "server-only";
import { tokenMatches } from "../auth/credentials";

// Who may scrape /metrics: nobody unless BC_METRICS_TOKEN is set (404, as if
// there were no such page), then only `Authorization: Bearer <token>` (401).

export type ScrapeAccess = "not-served" | "unauthorized" | "allowed";

export function scrapeAccess(authorization: string | null, token: string | undefined): ScrapeAccess {
  if (!token) return "not-served";
  const given = /^Bearer (.+)$/.exec(authorization ?? "")?.[1];
  if (!given) return "unauthorized";
  return tokenMatches(given, token) ? "allowed" : "unauthorized";
}
