// The windows digests are cut into: 15 minutes or an hour, aligned on UTC
// (every instance cuts the same windows, so two workers fill one digest).

export type DigestMode = "digest_15m" | "hourly";

export const WINDOW_MS: Record<DigestMode, number> = { digest_15m: 15 * 60_000, hourly: 60 * 60_000 };

/** The window of `mode` that `at` falls in: [start, end). */
export function digestWindow(mode: DigestMode, at: Date): { start: Date; end: Date } {
  const length = WINDOW_MS[mode];
  const start = Math.floor(at.getTime() / length) * length;
  return { start: new Date(start), end: new Date(start + length) };
}

export const isDigestMode = (mode: string): mode is DigestMode => mode in WINDOW_MS;
