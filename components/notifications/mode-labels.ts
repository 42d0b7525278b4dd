import type { NotificationMode } from "@/lib/notifications/settings-schemas";

/** How the console names each mode (the wire's names are for programs). */
export const MODE_LABELS: Record<NotificationMode, string> = {
  immediate: "Immediately",
  digest_15m: "Digest every 15 min",
  hourly: "Hourly digest",
  off: "Off",
};
