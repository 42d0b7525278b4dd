"use client";
import { useRouter } from "next/navigation";
import { lazy, Suspense, useState } from "react";
import type { PoolNotificationFacts } from "@/components/notifications/pool-notification-dialog";

const ApprovalsRequiredDialog = lazy(() => import("./approvals-required-dialog").then((m) => ({ default: m.ApprovalsRequiredDialog })));
const PoolNotificationDialog = lazy(() =>
  import("@/components/notifications/pool-notification-dialog").then((m) => ({ default: m.PoolNotificationDialog })),
);

/**
 * A tenant-admin's (compute:pools:manage) controls in the pool's heading:
 * approvals required (SPEC H1) and the notification default and escalation
 * (issue #39). The buttons are in the page's first load and each dialog's
 * code loads on first use: a click as soon as the page shows opens the dialog
 * once its code is in. (Loading the buttons lazily too, to spare other
 * visitors their few hundred bytes, left them server-rendered but dead until
 * their code arrived: a click in that time was lost.)
 */
export function PoolSettingsButtons(props: PoolNotificationFacts & { approvalsRequired: number }) {
  const router = useRouter();
  const [open, setOpen] = useState<"approvals" | "notifications" | null>(null);
  const close = () => setOpen(null);
  const saved = () => router.refresh();
  return (
    <>
      <button type="button" className="button button-small" onClick={() => setOpen("approvals")}>
        Change approvals required…
      </button>
      <button type="button" className="button button-small" onClick={() => setOpen("notifications")}>
        Notification defaults…
      </button>
      <Suspense fallback={null}>
        {open === "approvals" ? (
          <ApprovalsRequiredDialog
            tenantId={props.tenantId}
            poolId={props.poolId}
            approvalsRequired={props.approvalsRequired}
            onClose={close}
            onSaved={saved}
          />
        ) : null}
        {open === "notifications" ? <PoolNotificationDialog {...props} onClose={close} onSaved={saved} /> : null}
      </Suspense>
    </>
  );
}
