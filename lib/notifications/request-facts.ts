import { ageOf, approvalLine, type RequestSummary } from "./mail-message";

/** The facts a mail shows about a request, as (name, value) rows for text and HTML alike. */
export function requestFacts(request: RequestSummary, now: Date): [string, string][] {
  return [
    ["Machine", request.hostname],
    ["Serial", request.serialNumber],
    ["Pool", request.poolName],
    ["Why it waits", request.reasons.join(", ") || "none given"],
    ["Waiting for", ageOf(request, now)],
    ["Approvals", approvalLine(request)],
  ];
}

export const factsText = (rows: [string, string][]) => rows.map(([name, value]) => `${name}: ${value}`).join("\n");

/** Why the reader gets a mail about a pool's requests. */
export const DECIDER_FOOTER =
  "Better Compute join requests. You get this because you may decide this pool; choose how often in the console's notification settings.";
