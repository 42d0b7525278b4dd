"use client";
import { useState } from "react";

/** next-auth's client is loaded on click only, to keep it out of every page's first load. */
export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="button button-small button-ghost"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        const { signOut } = await import("next-auth/react");
        await signOut({ callbackUrl: "/signin" });
      }}
    >
      {busy ? "Signing out…" : "Sign out"}
    </button>
  );
}
