"use client";
import { useRouter } from "next/navigation";
import { lazy, Suspense, useState } from "react";

const ApprovalsRequiredDialog = lazy(() => import("./approvals-required-dialog").then((m) => ({ default: m.ApprovalsRequiredDialog })));

/**
 * SPEC H1: the pool's approvals required, as a badge for everyone when more
 * than one; a tenant-admin (compute:pools:manage) also gets the control that
 * changes it. The dialog loads on first use.
 */
export function ApprovalsRequiredSetting(props: { tenantId: string; poolId: string; approvalsRequired: number; canManage: boolean }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const { approvalsRequired, canManage } = props;
  if (!canManage && approvalsRequired <= 1) return null;
  return (
    <>
      <span className="badge" data-testid="approvals-required">
        {approvalsRequired} approval{approvalsRequired === 1 ? "" : "s"} required
      </span>
      {canManage ? (
        <button type="button" className="button button-small" onClick={() => setOpen(true)}>
          Change approvals required…
        </button>
      ) : null}
      <Suspense fallback={null}>
        {open ? <ApprovalsRequiredDialog {...props} onClose={() => setOpen(false)} onSaved={() => router.refresh()} /> : null}
      </Suspense>
    </>
  );
}
