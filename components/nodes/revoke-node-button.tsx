"use client";
import { useRouter } from "next/navigation";
import { lazy, Suspense, useState } from "react";
import type { NodeJson } from "@/lib/nodes/node-json";

const RevokeNodeDialog = lazy(() => import("./revoke-node-dialog").then((m) => ({ default: m.RevokeNodeDialog })));

/** The node page's revoke control, only rendered for callers who may revoke; the dialog loads on first use. */
export function RevokeNodeButton({ node }: { node: Pick<NodeJson, "id" | "tenantId" | "hostname"> }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button button-danger" onClick={() => setOpen(true)}>
        Revoke node
      </button>
      <Suspense fallback={null}>
        {open ? <RevokeNodeDialog node={node} onClose={() => setOpen(false)} onRevoked={() => router.refresh()} /> : null}
      </Suspense>
    </>
  );
}
