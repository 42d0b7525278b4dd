import "server-only";
import { env } from "../env";
import { consume, rateLimiter, refusedFor } from "./rate-limits";

// Password guessing, slowed then refused (issue 14 item 5): failures are
// counted per account (the normalised email, known or not, so the refusal
// says nothing about which accounts exist) and per client address, within a
// window. Each failure answers a little later than the one before; once
// either count reaches its limit, sign-in is refused, right password or not,
// until the window ends. A success clears the account's count.

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
    account: { points: BC_SIGNIN_MAX_FAILURES_PER_ACCOUNT, durationSeconds: BC_SIGNIN_WINDOW_SECONDS },
    address: { points: BC_SIGNIN_MAX_FAILURES_PER_ADDRESS, durationSeconds: BC_SIGNIN_WINDOW_SECONDS },
  };
}
const accountLimiter = () => rateLimiter("signin-account", limits().account);
const addressLimiter = () => rateLimiter("signin-address", limits().address);

/** Throws SignInThrottledError when the account or the address has spent its failures. */
export async function refuseIfThrottled(email: string, address: string | null): Promise<void> {
  const { account, address: perAddress } = limits();
  const waits = await Promise.all([
    refusedFor(await accountLimiter(), email, account.points),
    address ? refusedFor(await addressLimiter(), address, perAddress.points) : null,
  ]);
  const longest = Math.max(...waits.map((wait) => wait ?? 0));
  if (longest > 0) throw new SignInThrottledError(longest);
}

/** Counts a failure; resolves after the delay this failure earns (250 ms, doubling, at most 2 s). */
export async function recordSignInFailure(email: string, address: string | null): Promise<void> {
  const [account] = await Promise.all([
    consume(await accountLimiter(), email),
    address ? consume(await addressLimiter(), address) : undefined,
  ]);
  const failures = account.refused ? limits().account.points : account.consumed;
  const delayMs = Math.min(MAX_FAILURE_DELAY_MS, 250 * 2 ** Math.max(0, failures - 1));
  await new Promise((resolve) => setTimeout(resolve, delayMs));
}

export async function recordSignInSuccess(email: string): Promise<void> {
  await (await accountLimiter()).delete(email);
}
