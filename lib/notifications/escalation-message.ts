import { button, facts, mailDocument, paragraph } from "./mail-html";
import { ageOf, subjectHostname, type MailMessage, type RequestSummary } from "./mail-message";
import { factsText, requestFacts } from "./request-facts";

const FOOTER = "Better Compute join requests. You get this because this address is on the pool's escalation list.";

/** A request still pending past the pool's escalation delay: sent once, to the pool's escalation list. */
export function escalationMessage(request: RequestSummary, now: Date): MailMessage {
  const subject = `Escalated: ${subjectHostname(request.hostname)} has waited ${ageOf(request, now)} in ${request.poolName}`;
  const rows = requestFacts(request, now);
  const intro = `A join request in ${request.poolName} is still undecided after ${ageOf(request, now)}. Nobody who may decide it has yet.`;
  return {
    subject,
    text: `${intro}\n\n${factsText(rows)}\n\nThe request: ${request.link}\n\n${FOOTER}\n`,
    html: mailDocument(subject, [paragraph(intro), facts(rows), button("Open the request", request.link)], FOOTER),
  };
}
