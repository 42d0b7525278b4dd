import "server-only";
import { env } from "../env";

/**
 * The caller's address for per-address limits. `next start` puts its peer's
 * address in X-Forwarded-For when the request has none; each trusted reverse
 * proxy in front (BC_TRUSTED_PROXY_HOPS) appends the address it saw, so the
 * client is that many entries from the right. Directly exposed (0 hops), a
 * client that sends its own X-Forwarded-For chooses what is counted: the
 * per-account limit still holds (README "Sign-in throttling").
 */
export function clientAddress(forwardedFor: string | string[] | null | undefined, hops = env().BC_TRUSTED_PROXY_HOPS): string | null {
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor;
  const entries = (header ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return null;
  return hops === 0 ? entries[0]! : (entries[Math.max(0, entries.length - hops)] ?? null);
}
