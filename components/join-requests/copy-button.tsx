"use client";
import { useState } from "react";

/** Copies `value` to the clipboard and says so for a moment. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="button button-small button-ghost"
      aria-label={label}
      title={label}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          setTimeout(() => setCopied(false), 1_500);
        } catch {
          window.prompt(label, value); // no clipboard access: let the user copy it
        }
      }}
    >
      {copied ? "Copied" : "Copy"}
    </button>
  );
}
