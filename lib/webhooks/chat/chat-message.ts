/**
 * A chat message before it is dressed for one service: every string here is
 * plain text, some of it attacker-controlled (a machine reports its own
 * hostname and serial number), so each format's renderer escapes all of it.
 */
export interface ChatMessage {
  /** one line that says what happened, e.g. "host-1 waits for approval" */
  headline: string;
  /** colours the message where the service can: waiting (amber), good (green), bad (red), neutral */
  tone: "waiting" | "good" | "bad" | "neutral";
  /** the machine, pool, reasons, … as label/value pairs, in order */
  facts: ChatFact[];
  /** where to look and decide (the request or node page); null when there is no page for it */
  link: { label: string; url: string } | null;
  /** the event's type and id, for the message's small print */
  eventType: string;
  eventId: string;
}

export interface ChatFact {
  label: string;
  value: string;
}

/** An event as the delivery worker has it (data unparsed: each kind reads what it knows). */
export interface ChatEvent {
  id: string;
  type: string;
  occurredAt: string;
  tenantId: string;
  data: unknown;
}

/** What the event itself does not carry but a person wants to read: the machine and the pool's name. */
export interface ChatContext {
  poolName: string | null;
  machine: { hostname: string; serialNumber: string } | null;
}

/** The most characters of any one value shown: a long serial or reason cannot push a message past a service's limits. */
export const MAX_VALUE_CHARACTERS = 300;

export const clip = (text: string, max = MAX_VALUE_CHARACTERS) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
