import { button, facts, mailDocument, paragraph } from "./mail-html";
import { subjectHostname, type MailMessage, type RequestSummary } from "./mail-message";
import { DECIDER_FOOTER, factsText, requestFacts } from "./request-facts";

/** A request waits for the reader's decision: what it is, and one link straight to it. */
export function waitingMessage(request: RequestSummary, now: Date): MailMessage {
  const subject = `Join request waiting: ${subjectHostname(request.hostname)} in ${request.poolName}`;
  const rows = requestFacts(request, now);
  const intro = `A machine asks to join ${request.poolName} and waits for a decision.`;
  return {
    subject,
    text: `${intro}\n\n${factsText(rows)}\n\nDecide: ${request.link}\n\n${DECIDER_FOOTER}\n`,
    html: mailDocument(subject, [paragraph(intro), facts(rows), button("Open the request", request.link)], DECIDER_FOOTER),
  };
}
