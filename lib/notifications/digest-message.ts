import { html, join, link, list, mailDocument, paragraph } from "./mail-html";
import { ageOf, approvalLine, type MailMessage, type RequestSummary } from "./mail-message";
import { DECIDER_FOOTER } from "./request-facts";

/** One line per request: what it is, and its state now (it may have been decided since). */
function line(request: RequestSummary, now: Date): string {
  const state = request.state === "pending" ? `waiting ${ageOf(request, now)}, ${approvalLine(request)}` : `now ${request.state}`;
  return `${request.hostname} (serial ${request.serialNumber}) in ${request.poolName}: ${request.reasons.join(", ") || "no reason given"}; ${state}`;
}

/** The requests of one window, each once, oldest first. */
export function digestMessage(requests: RequestSummary[], window: { start: Date; end: Date }, now: Date): MailMessage {
  const sorted = [...requests].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const waiting = sorted.filter((request) => request.state === "pending").length;
  const count = `${sorted.length} join request${sorted.length === 1 ? "" : "s"}`;
  const subject = `Digest: ${count}, ${waiting} still waiting`;
  const intro = `${count} arrived between ${window.start.toISOString()} and ${window.end.toISOString()}.`;
  const text = sorted.map((request) => `- ${line(request, now)}\n  ${request.link}`).join("\n");
  const items = sorted.map((request) => join(html(line(request, now)), html(" "), link("Open", request.link)));
  return {
    subject,
    text: `${intro}\n\n${text}\n\n${DECIDER_FOOTER}\n`,
    html: mailDocument(subject, [paragraph(intro), list(items)], DECIDER_FOOTER),
  };
}
