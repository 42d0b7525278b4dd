import "server-only";
import ipaddr from "ipaddr.js";
import { env } from "../env";
import { consume, rateLimiter, refusedFor } from "./rate-limits";

// Password guessing, slowed then refused (SPEC G9; issue 14 item 5 before it).
// Failures are counted per account at an address (the normalised email,
// known or not, so nothing says which accounts exist) and per address, within
// a window. Each failure answers a little later than the one before; once
// either count reaches its limit, sign-in from that address is refused, right
// password or not, until the window ends. Nothing is counted per account
// alone: failures from elsewhere never refuse the account's owner at an
// address that has not failed. A success clears that account's count there.

/** The message next-auth passes to the sign-in page: `SignInThrottled:<seconds>`. */
export const THROTTLED_PREFIX = "SignInThrottled:";

export class SignInThrottledError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`${THROTTLED_PREFIX}${retryAfterSeconds}`);
    this.name = "SignInThrottledError";
  }
}

const MAX_FAILURE_DELAY_MS = 2_000;

function limits() {
  const { BC_SIGNIN_MAX_FAILURES_PER_ACCOUNT, BC_SIGNIN_MAX_FAILURES_PER_ADDRESS, BC_SIGNIN_WINDOW_SECONDS } = env();
  return {
    accountAtAddress: { points: BC_SIGNIN_MAX_FAILURES_PER_ACCOUNT, durationSeconds: BC_SIGNIN_WINDOW_SECONDS },
    address: { points: BC_SIGNIN_MAX_FAILURES_PER_ADDRESS, durationSeconds: BC_SIGNIN_WINDOW_SECONDS },
  };
}
const accountAtAddressLimiter = () => rateLimiter("signin-account-address", limits().accountAtAddress);
const addressLimiter = () => rateLimiter("signin-address", limits().address);

/**
 * What an address is counted as: itself, or for IPv6 its /64, which one
 * subscriber usually holds whole and could otherwise rotate through.
 */
function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  return parsed.kind() === "ipv6" ? `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64` : parsed.toString();
}
/** The address comes first and holds no space, so no email can make another pair's key. */
const accountAtAddressKey = (email: string, address: string) => `${addressKey(address)} ${email}`;

/** Throws SignInThrottledError when this account at this address, or this address, has spent its failures. */
export async function refuseIfThrottled(email: string, address: string): Promise<void> {
  const { accountAtAddress, address: perAddress } = limits();
  const waits = await Promise.all([
    refusedFor(await accountAtAddressLimiter(), accountAtAddressKey(email, address), accountAtAddress.points),
    refusedFor(await addressLimiter(), addressKey(address), perAddress.points),
  ]);
  const longest = Math.max(...waits.map((wait) => wait ?? 0));
  if (longest > 0) throw new SignInThrottledError(longest);
}

/** Counts a failure; resolves after the delay this failure earns (250 ms, doubling, at most 2 s). */
export async function recordSignInFailure(email: string, address: string): Promise<void> {
  const [pair] = await Promise.all([
    consume(await accountAtAddressLimiter(), accountAtAddressKey(email, address)),
    consume(await addressLimiter(), addressKey(address)),
  ]);
  const failures = pair.refused ? limits().accountAtAddress.points : pair.consumed;
  await new Promise((resolve) => setTimeout(resolve, failureDelayMs(failures)));
}

/** What the n-th failure in the window waits: 250 ms, doubling, at most 2 s. */
export function failureDelayMs(failures: number): number {
  return Math.min(MAX_FAILURE_DELAY_MS, 250 * 2 ** Math.max(0, failures - 1));
}

export async function recordSignInSuccess(email: string, address: string): Promise<void> {
  await (await accountAtAddressLimiter()).delete(accountAtAddressKey(email, address));
}
