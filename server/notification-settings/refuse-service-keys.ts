import "server-only";
import { ApiError } from "../api/errors";
import type { Principal } from "../auth/principal";

/**
 * Notification settings belong to a person with a mailbox: a service key has
 * none (mail goes to users' addresses), so it is refused with a reason rather
 * than shown settings that would never send it anything.
 */
export function refuseServiceKeys(principal: Principal): void {
  if (principal.kind === "user") return;
  throw new ApiError(
    "PERMISSION_DENIED",
    "service keys have no mailbox: notification settings belong to signed-in users (sign in to the console, or call with its session)",
  );
}
