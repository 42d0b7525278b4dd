"use client";
import { useState } from "react";
import { approveJoinRequestInput, rejectJoinRequestInput } from "@/lib/validations/join-requests";
import { parseInput } from "@/lib/validations/parse-input";
import { DEFAULT_TTL_CHOICE, ttlSecondsOf, type TtlChoice } from "./ttl";

const FIELD_LABELS: Record<string, string> = { ttlSeconds: "Time to live", reason: "Reason" };

/**
 * The TTL and reason of a decision, judged by the server's own schemas
 * (approveJoinRequestInput / rejectJoinRequestInput), so a value the server
 * would refuse never leaves the browser.
 */
export function useDecisionForm(decision: "approve" | "reject", target: { tenantId: string; poolId: string; requestId: string }) {
  const [ttl, setTtl] = useState<TtlChoice>(DEFAULT_TTL_CHOICE);
  const [reason, setReason] = useState("");
  const [submitted, setSubmitted] = useState(false);

  const ttlSeconds = ttlSecondsOf(ttl);
  const reasonValue = reason === "" ? undefined : reason;
  const parsed =
    decision === "approve"
      ? parseInput(approveJoinRequestInput, { ...target, ttlSeconds, reason: reasonValue })
      : parseInput(rejectJoinRequestInput, { ...target, reason: reasonValue });
  const errors: Record<string, string> = {};
  if (!parsed.ok) {
    for (const violation of parsed.violations) {
      errors[violation.field] ??= `${FIELD_LABELS[violation.field] ?? violation.field} ${violation.message}`;
    }
  }
  // "Time to live must be an integer from 60 to 86400 seconds (1 minute to 24 hours)."
  const ttlError = errors.ttlSeconds ? `${errors.ttlSeconds} seconds (1 minute to 24 hours).` : null;

  return {
    ttl,
    setTtl,
    reason,
    setReason,
    reasonValue,
    /** null while the TTL is invalid */
    ttlSeconds: errors.ttlSeconds ? null : ttlSeconds,
    // A custom amount is judged as soon as something is typed, or on submit.
    ttlError: ttl.kind === "custom" && (ttl.amount !== "" || submitted) ? ttlError : null,
    reasonError: errors.reason ?? null,
    /** Marks the form submitted; true when everything the schema checks is valid. */
    submit(): boolean {
      setSubmitted(true);
      return parsed.ok;
    },
  };
}
