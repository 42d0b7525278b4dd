import Link from "next/link";
import { LocalTime } from "@/components/join-requests/countdown";
import dataTable from "@/components/ui/data-table.module.css";
import tableCards from "@/components/ui/table-cards.module.css";
import { DELIVERY_KIND_LABELS, DELIVERY_STATUS_LABELS, digestRequestsText, type DeliveryLogEntry } from "@/lib/notifications/delivery-log";
import { requestPagePath } from "@/lib/url/console-paths";

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function About({ entry }: { entry: DeliveryLogEntry }) {
  if (entry.kind === "digest") return <>{digestRequestsText(entry.digestRequests)}</>;
  if (!entry.requestId) return <span className="muted">—</span>;
  if (!entry.poolId) return <span className="mono">{entry.requestId}</span>;
  return (
    <Link className="mono" href={requestPagePath(entry.poolId, entry.requestId)}>
      {entry.requestId}
    </Link>
  );
}

const STATUS_BADGES: Record<DeliveryLogEntry["status"], string> = {
  sent: "badge badge-approved",
  pending: "badge badge-pending",
  dead: "badge badge-rejected",
  not_configured: "badge badge-expired",
};

/**
 * The signed-in user's most recent mails (issue #39's delivery log, their part
 * of it): so "did I get told?" has an answer without asking an operator. The
 * SMTP server's errors are the operator's (`npm run admin -- notifications
 * deliveries`): they name hosts of the mail system, not the user's business.
 */
export function RecentMailTable({ entries }: { entries: DeliveryLogEntry[] }) {
  return (
    <div className={dataTable.tableWrap}>
      <table className={`${dataTable.table} ${tableCards.cards}`} aria-labelledby="recent-mail">
        <thead>
          <tr>
            <th scope="col">Made</th>
            <th scope="col">Mail</th>
            <th scope="col">About</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id} data-testid="mail-delivery" data-delivery-id={entry.id}>
              <td className={dataTable.nowrap} data-label="Made">
                <LocalTime iso={iso(entry.createdAt)} />
              </td>
              <td data-label="Mail">{DELIVERY_KIND_LABELS[entry.kind]}</td>
              <td data-label="About">
                <About entry={entry} />
              </td>
              <td data-label="Status">
                <span className={STATUS_BADGES[entry.status]} data-testid="mail-delivery-status">
                  {DELIVERY_STATUS_LABELS[entry.status]}
                </span>
                {entry.sentAt ? (
                  <div className="muted">
                    <LocalTime iso={iso(entry.sentAt)} />
                  </div>
                ) : null}
              </td>
              <td data-label="Attempts">{entry.attempts}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
