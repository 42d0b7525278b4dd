"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import liveIndicator from "@/components/ui/live-indicator.module.css";
import { LIVE_REFRESH_MS } from "./live-refresh-interval";

/**
 * Re-renders a server page every `intervalMs` while the tab is visible (and
 * at once when it becomes visible again), like the queue's live refresh:
 * paused when hidden, so a forgotten tab costs nothing.
 */
export function LiveRefresh({ intervalMs = LIVE_REFRESH_MS }: { intervalMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      stop();
      if (document.visibilityState === "visible") timer = setInterval(() => router.refresh(), intervalMs);
    };
    const stop = () => timer && clearInterval(timer);
    const onVisibility = () => {
      if (document.visibilityState === "visible") router.refresh();
      start();
    };
    start();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      stop();
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [router, intervalMs]);
  return (
    <span className={liveIndicator.live}>
      <span className={liveIndicator.dot} aria-hidden="true" /> Live
    </span>
  );
}
