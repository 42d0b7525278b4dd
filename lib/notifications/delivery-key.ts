import { WINDOW_MS, isDigestMode, type DigestMode } from "./digest-window";

// A notification's delivery key says what it is and to whom; it is unique, so
// nobody hears of one thing twice however many workers scan the same event.

export const requestKey = (kind: "waiting" | "outcome", requestId: string, userId: string) => `${kind}:${requestId}:${userId}`;

export const escalationKey = (requestId: string, email: string) => `escalation:${requestId}:${email.toLowerCase()}`;

export const digestKey = (userId: string, mode: DigestMode, windowStart: Date) => `digest:${userId}:${mode}:${windowStart.toISOString()}`;

/** The window a digest's key names; null for any other key. */
export function digestKeyWindow(key: string): { start: Date; end: Date } | null {
  const match = /^digest:[^:]+:([a-z_0-9]+):(.+)$/.exec(key);
  if (!match || !isDigestMode(match[1]!)) return null;
  const start = new Date(match[2]!);
  if (Number.isNaN(start.getTime())) return null;
  return { start, end: new Date(start.getTime() + WINDOW_MS[match[1] as DigestMode]) };
}
