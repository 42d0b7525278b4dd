import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";

// Who may scrape /metrics: nobody unless BC_METRICS_TOKEN is set (404, as if
// there were no such page), then only `Authorization: Bearer <token>` (401).

export type ScrapeAccess = "not-served" | "unauthorized" | "allowed";

export function scrapeAccess(authorization: string | null, token: string | undefined): ScrapeAccess {
  if (!token) return "not-served";
  const given = /^Bearer (.+)$/.exec(authorization ?? "")?.[1];
  if (!given) return "unauthorized";
  // Digests first: equal lengths for timingSafeEqual, and no early exit that
  // would tell the token's length.
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(given), digest(token)) ? "allowed" : "unauthorized";
}
