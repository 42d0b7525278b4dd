import { consoleLink, nodePagePath, requestPagePath } from "@/lib/url/console-paths";
import { clip, type ChatContext, type ChatEvent, type ChatFact, type ChatMessage } from "./chat-message";

// What a person reads of an event in a chat channel: one headline, the
// machine, its pool and why, and a link to the page where it is decided.
// Approval itself stays behind sign-in and the quorum (SPEC H1): no button here
// does more than open that page.

type Data = Record<string, unknown>;
const text = (data: Data, key: string): string | null => (typeof data[key] === "string" ? (data[key] as string) : null);
const list = (data: Data, key: string): unknown[] => (Array.isArray(data[key]) ? (data[key] as unknown[]) : []);

interface Kind {
  headline: (machine: string) => string;
  tone: ChatMessage["tone"];
  facts?: (data: Data) => (ChatFact | null)[];
}

const fact = (label: string, value: string | null | undefined): ChatFact | null => (value ? { label, value: clip(value) } : null);
const reasons = (data: Data) =>
  fact(
    "Reasons",
    list(data, "reasons")
      .filter((reason) => typeof reason === "string")
      .join(", "),
  );
const expires = (data: Data) => fact("Expires", text(data, "expiresAt"));
const approvedBy = (data: Data) =>
  fact(
    "Approved by",
    list(data, "approvals")
      .map((approval) => (approval && typeof approval === "object" ? (approval as Data).by : null))
      .filter((by): by is string => typeof by === "string")
      .join(", "),
  );

export const ESCALATED_EVENT_TYPE = "compute.join-request.escalated";

const KINDS: Record<string, Kind> = {
  "security.join-request.created": {
    headline: (m) => `${m} asks to join and waits for a decision`,
    tone: "waiting",
    facts: (d) => [reasons(d), expires(d)],
  },
  "security.join-request.approval-recorded": {
    headline: (m) => `${m}: an approval was recorded; it waits for more`,
    tone: "waiting",
    facts: (d) => [approvedBy(d), fact("Approvals required", typeof d.approvalsRequired === "number" ? String(d.approvalsRequired) : null)],
  },
  [ESCALATED_EVENT_TYPE]: { headline: (m) => `${m} still waits for a decision`, tone: "waiting", facts: (d) => [reasons(d), expires(d)] },
  "security.join-request.approved": {
    headline: (m) => `${m} was approved to join`,
    tone: "good",
    facts: (d) => [approvedBy(d), expires(d)],
  },
  "security.join-request.rejected": {
    headline: (m) => `${m} was rejected`,
    tone: "bad",
    facts: (d) => [fact("Reason", text(d, "reason"))],
  },
  "security.join-request.expired": { headline: (m) => `${m}'s join request expired undecided`, tone: "neutral" },
  "compute.node.joined": { headline: (m) => `${m} joined as a node`, tone: "good" },
  "compute.node.revoked": { headline: (m) => `Node ${m} was revoked`, tone: "bad", facts: (d) => [fact("Reason", text(d, "reason"))] },
  "compute.node.attestation-failed": {
    headline: (m) => `Node ${m} failed attestation: its boot matches no known state`,
    tone: "bad",
    facts: (d) => [
      fact("Unmatched PCRs", d.unmatchedPcrs && typeof d.unmatchedPcrs === "object" ? Object.keys(d.unmatchedPcrs).join(", ") : null),
    ],
  },
};

/** The message for `event`; a type without its own wording gets one plain line naming the type. */
export function describeChatEvent(event: ChatEvent, context: ChatContext, consoleOrigin: string | undefined): ChatMessage {
  const data: Data = event.data && typeof event.data === "object" ? (event.data as Data) : {};
  const machineName = context.machine ? clip(context.machine.hostname, 100) : "A machine";
  const kind = KINDS[event.type];
  const poolId = text(data, "poolId");
  const facts = [
    fact("Machine", context.machine?.hostname),
    fact("Serial number", context.machine?.serialNumber),
    fact(
      "Pool",
      poolId ? (context.poolName && context.poolName !== poolId ? `${context.poolName} (${poolId})` : poolId) : "none yet (unclaimed)",
    ),
    ...(kind?.facts?.(data) ?? []),
  ].filter((each): each is ChatFact => each !== null);
  return {
    headline: kind ? kind.headline(machineName) : `${event.type}${poolId ? ` in pool ${poolId}` : ""}`,
    tone: kind?.tone ?? "neutral",
    facts: kind ? facts : facts.filter((each) => each.label !== "Pool" || poolId),
    link: pageLink(data, poolId, consoleOrigin),
    eventType: event.type,
    eventId: event.id,
  };
}

/** The request's page, or the node's; an unclaimed request has none of its own yet: the console's overview lists it. */
function pageLink(data: Data, poolId: string | null, consoleOrigin: string | undefined): ChatMessage["link"] {
  const requestId = text(data, "requestId");
  const nodeId = text(data, "nodeId");
  if (poolId && nodeId) return { label: "Open the node", url: consoleLink(consoleOrigin, nodePagePath(poolId, nodeId)) };
  if (poolId && requestId) return { label: "Open the request", url: consoleLink(consoleOrigin, requestPagePath(poolId, requestId)) };
  if (requestId) return { label: "Open the console", url: consoleLink(consoleOrigin, "/") };
  return null;
}
