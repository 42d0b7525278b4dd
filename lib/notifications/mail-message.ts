import { formatDuration } from "../time/format-duration";

/** One mail: a subject, plain text first, and the same as HTML. */
export interface MailMessage {
  subject: string;
  text: string;
  html: string;
}

/** What a mail says about one join request. */
export interface RequestSummary {
  requestId: string;
  hostname: string;
  serialNumber: string;
  reasons: string[];
  poolName: string;
  createdAt: Date;
  /** the state as the mail is written: pending, approved, rejected, expired, consumed */
  state: string;
  /** who approved it so far (names or addresses), and how many approvals admit it (SPEC H1) */
  approvedBy: string[];
  approvalsRequired: number;
  /** the absolute link to the request page */
  link: string;
}

/** "2 of 3 approvals (Ann, Bob)", or "needs 1 approval". */
export function approvalLine(request: RequestSummary): string {
  const { approvedBy, approvalsRequired } = request;
  if (approvedBy.length === 0) return `needs ${approvalsRequired} approval${approvalsRequired === 1 ? "" : "s"}`;
  return `${approvedBy.length} of ${approvalsRequired} approvals (${approvedBy.join(", ")})`;
}

export const ageOf = (request: RequestSummary, now: Date) => formatDuration(now.getTime() - request.createdAt.getTime());

/** A hostname in a subject line: one line, not too long (the machine chose it). */
export function subjectHostname(hostname: string): string {
  const oneLine = hostname.replace(/[\r\n\t]+/g, " ");
  return oneLine.length > 80 ? `${oneLine.slice(0, 77)}...` : oneLine;
}
