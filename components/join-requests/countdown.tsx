"use client";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { formatCountdown, formatDuration } from "@/lib/time/format-duration";
import { useNow } from "@/lib/time/use-now";

/** Time left until a live (pending or approved) request expires, ticking. */
export function ExpiryCountdown({ request }: { request: Pick<JoinRequestJson, "state" | "expiresAt"> }) {
  const now = useNow();
  const expiresAt = new Date(request.expiresAt);
  if (request.state !== "pending" && request.state !== "approved") {
    return <span className="muted">{request.state === "expired" ? "expired" : "—"}</span>;
  }
  const left = expiresAt.getTime() - now;
  return (
    <time
      dateTime={request.expiresAt}
      title={`Expires ${expiresAt.toLocaleString()}`}
      suppressHydrationWarning
      className={left < 15 * 60_000 ? "mono field-error" : "mono"}
    >
      {left > 0 ? formatCountdown(left) : "expired"}
    </time>
  );
}

/** How long ago something happened ("42 min ago"). */
export function Age({ iso }: { iso: string }) {
  const now = useNow();
  const at = new Date(iso);
  return (
    <time dateTime={iso} title={at.toLocaleString()} suppressHydrationWarning>
      {formatDuration(now - at.getTime())} ago
    </time>
  );
}

/** An absolute time in the reader's locale and time zone. */
export function LocalTime({ iso }: { iso: string | null }) {
  if (!iso) return <span className="muted">—</span>;
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {new Date(iso).toLocaleString()}
    </time>
  );
}
