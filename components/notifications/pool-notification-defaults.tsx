"use client";
import { useRouter } from "next/navigation";
import { lazy, Suspense, useState } from "react";
import type { PoolNotificationFacts } from "./pool-notification-dialog";

const PoolNotificationDialog = lazy(() => import("./pool-notification-dialog").then((m) => ({ default: m.PoolNotificationDialog })));

/**
 * Issue #39: a tenant-admin's control for the pool's notification default and
 * escalation, beside approvals required in the pool's heading. The dialog
 * loads on first use.
 */
export function PoolNotificationDefaults(props: PoolNotificationFacts) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button button-small" onClick={() => setOpen(true)}>
        Notification defaults…
      </button>
      <Suspense fallback={null}>
        {open ? <PoolNotificationDialog {...props} onClose={() => setOpen(false)} onSaved={() => router.refresh()} /> : null}
      </Suspense>
    </>
  );
}
