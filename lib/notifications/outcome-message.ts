import { button, facts, mailDocument, paragraph } from "./mail-html";
import { subjectHostname, type MailMessage, type RequestSummary } from "./mail-message";
import { factsText } from "./request-facts";

export type Outcome = "approved" | "rejected" | "expired";

const SAID: Record<Outcome, string> = {
  approved: "was approved",
  rejected: "was rejected",
  expired: "expired undecided",
};

const FOOTER = "Better Compute join requests. You get this because you approved this request.";

/** A request the reader approved was decided: how it ended, by whom, and why when a reason was given. */
export function outcomeMessage(
  request: RequestSummary,
  outcome: { outcome: Outcome; decidedBy: string | null; reason: string | null },
): MailMessage {
  const subject = `Join request ${outcome.outcome}: ${subjectHostname(request.hostname)} in ${request.poolName}`;
  const intro = `The join request of ${request.hostname}, which you approved, ${SAID[outcome.outcome]}.`;
  const rows: [string, string][] = [
    ["Machine", request.hostname],
    ["Serial", request.serialNumber],
    ["Pool", request.poolName],
  ];
  if (outcome.decidedBy) rows.push(["Decided by", outcome.decidedBy]);
  if (outcome.reason) rows.push(["Reason", outcome.reason]);
  return {
    subject,
    text: `${intro}\n\n${factsText(rows)}\n\nThe request: ${request.link}\n\n${FOOTER}\n`,
    html: mailDocument(subject, [paragraph(intro), facts(rows), button("Open the request", request.link)], FOOTER),
  };
}
