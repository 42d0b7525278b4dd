import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { approvalCountText, approvalProgress } from "@/lib/join-requests/approval-progress";
import { Age } from "./countdown";
import styles from "./approvals-line.module.css";

/**
 * SPEC H1: "1 of 2 approvals · admin@acme.test, 3 min ago", for a request
 * that needs more than one approval (a request needing one says who decided
 * where it always did). Each time is relative, its title the absolute time.
 */
export function ApprovalsLine(props: {
  request: Pick<JoinRequestJson, "approvals" | "approvalsRequired">;
  /** labels of the principals approvals name; an unknown one shows as its id */
  names: Readonly<Record<string, string>>;
}) {
  const { request, names } = props;
  if (request.approvalsRequired <= 1) return null;
  return (
    <span className={styles.line} data-testid="approvals-line">
      <span className="badge">{approvalCountText(approvalProgress(request, ""))}</span>
      {request.approvals.map((approval) => (
        <span key={approval.by}>
          {" · "}
          <span className={styles.approver}>{names[approval.by] ?? approval.by}</span>, <Age iso={approval.at} />
        </span>
      ))}
    </span>
  );
}
