import "server-only";
import ipaddr from "ipaddr.js";
import { env } from "../env";
import { peerAddress } from "./peer-address";

/** What a request is counted under when its address cannot be known (never a client's choice). */
export const UNKNOWN_ADDRESS = "unknown";

/**
 * The caller's address for per-address limits (SPEC G9): the socket's peer,
 * unless BC_TRUSTED_PROXY_HOPS reverse proxies are in front, each appending
 * the address it saw to X-Forwarded-For: then the entry that many from the
 * right (entries further left are whatever the client sent). With more hops
 * configured than entries, the leftmost, which a trusted proxy still wrote.
 */
export function clientAddress(headers: Record<string, unknown>, hops = env().BC_TRUSTED_PROXY_HOPS): string {
  if (hops === 0) return normalised(peerAddress(headers));
  const forwardedFor = headers["x-forwarded-for"];
  const entries = (typeof forwardedFor === "string" ? forwardedFor : "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return normalised(entries[Math.max(0, entries.length - hops)] ?? peerAddress(headers));
}

/** One spelling per address: an IPv4 client of a dual-stack socket (`::ffff:192.0.2.1`) is 192.0.2.1. */
function normalised(address: string | null): string {
  if (!address) return UNKNOWN_ADDRESS;
  return ipaddr.isValid(address) ? ipaddr.process(address).toString() : address;
}
