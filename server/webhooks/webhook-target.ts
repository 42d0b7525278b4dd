import "server-only";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { env } from "../env";

// Where a webhook may be delivered (SSRF guard). Only public unicast
// addresses, over https; BC_WEBHOOK_ALLOW_PRIVATE=1 lifts both for
// development and tests, whose receivers listen on loopback over http.

export class WebhookTargetError extends Error {
  override name = "WebhookTargetError";
}

/** The setting, read once per call so that a test can pass its own. */
export const privateTargetsAllowed = () => env().BC_WEBHOOK_ALLOW_PRIVATE === "1";

/**
 * Why `address` may not be a webhook target, or null when it may. ipaddr.js
 * names every special range (loopback, private, linkLocal — 169.254.169.254,
 * the cloud metadata address, is one —, uniqueLocal, carrierGradeNat,
 * unspecified, reserved, ...); only "unicast" is the public internet.
 * IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
 */
export function blockedAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const range = ipaddr.process(address).range();
  return range === "unicast" ? null : `${address} is a ${range} address`;
}

/** The host without an IPv6 literal's brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/** The URL's protocol and literal host, before any DNS: https only unless allowed. */
export function checkWebhookUrlTarget(url: URL, allowPrivate = privateTargetsAllowed()): void {
  if (allowPrivate) return;
  if (url.protocol !== "https:")
    throw new WebhookTargetError("the URL must be https:// (BC_WEBHOOK_ALLOW_PRIVATE=1 allows http for development)");
  const host = bareHost(url);
  const reason = isIP(host) ? blockedAddressReason(host) : null;
  if (reason) throw new WebhookTargetError(`the URL must not point at a private address: ${reason}`);
}

/**
 * A dns.lookup for the delivery's socket: it resolves the host, refuses the
 * connection if any address is not public, and hands the socket the very
 * addresses it checked — so a second, rebound DNS answer is never used.
 */
export const checkedLookup =
  (allowPrivate: boolean): LookupFunction =>
  (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      const blocked = allowPrivate ? null : addresses.map((entry) => blockedAddressReason(entry.address)).find(Boolean);
      if (blocked) return callback(new WebhookTargetError(`refused: ${hostname} resolves to ${blocked.replace(/ is /, ", ")}`), "", 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };

/** The check at creation: the URL, then what its host resolves to now. */
export async function checkWebhookTarget(url: URL, allowPrivate = privateTargetsAllowed()): Promise<void> {
  checkWebhookUrlTarget(url, allowPrivate);
  if (allowPrivate || isIP(bareHost(url))) return;
  await new Promise<void>((resolve, reject) =>
    checkedLookup(false)(url.hostname, {}, (error) =>
      error
        ? reject(
            error instanceof WebhookTargetError
              ? error
              : new WebhookTargetError(`${url.hostname} does not resolve: ${(error as NodeJS.ErrnoException).code ?? error.message}`),
          )
        : resolve(),
    ),
  );
}
