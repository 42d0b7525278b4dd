import "server-only";
import type { Env } from "../env";

/** Whether notification mail can be sent at all: a mail server is named (an empty value counts as unset). */
export function mailConfigured(env: Pick<Env, "BC_SMTP_URL">): boolean {
  return Boolean(env.BC_SMTP_URL?.trim());
}
