import "server-only";
import { getDb } from "../db/client";
import { log } from "../log";
import { hashPassword, verifyPassword } from "./password";
import { recordSignInFailure, recordSignInSuccess, refuseIfThrottled, SignInThrottledError } from "./sign-in-throttle";

// Compared against when the email is unknown (or has no password), so that an
// unknown email costs what a wrong password does: one scrypt of the same cost.
// Made before the lookup on every attempt, so that even the first attempt of a
// process takes as long for an unknown email as for a known one.
let decoyHash: Promise<string> | undefined;

/** A local account's sign-in (SPEC B4, G9): the user, or null; throws SignInThrottledError when refused. */
export async function authorizeCredentials(rawEmail: string, password: string, address: string) {
  const email = rawEmail.trim().toLowerCase();
  try {
    await refuseIfThrottled(email, address);
  } catch (error) {
    if (error instanceof SignInThrottledError)
      log.warn("sign-in refused: too many failures", { email, address, retryAfterSeconds: error.retryAfterSeconds });
    throw error; // next-auth sends its message to the sign-in page
  }
  decoyHash ??= hashPassword("decoy password, never valid");
  const decoy = await decoyHash;
  const db = await getDb();
  const user = await db.user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, passwordHash: true, disabledAt: true },
  });
  const valid = await verifyPassword(password, user?.passwordHash ?? decoy);
  // a disabled user is refused like a wrong password (the password is still checked: same timing)
  if (user?.passwordHash && valid && !user.disabledAt) {
    await recordSignInSuccess(email, address);
    log.info("sign-in", { email, address, outcome: "success" });
    return { id: user.id, email: user.email, name: user.name };
  }
  log.info("sign-in", { email, address, outcome: "failure" }); // never the password
  await recordSignInFailure(email, address);
  return null;
}
