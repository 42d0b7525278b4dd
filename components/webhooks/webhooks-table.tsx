import { LocalTime } from "@/components/join-requests/countdown";
import tableCards from "@/components/ui/table-cards.module.css";
import dataTable from "@/components/ui/data-table.module.css";
import { FAILING_AFTER } from "@/lib/webhooks/webhook-health";
import { WEBHOOK_FORMAT_LABELS } from "@/lib/webhooks/webhook-format";
import type { WebhookSubscriptionInfo } from "@/lib/webhooks/webhook-subscription";

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function Health({ subscription }: { subscription: WebhookSubscriptionInfo }) {
  if (subscription.health.kind === "failing") {
    return (
      <span className="badge badge-rejected" data-testid="webhook-health">
        failing since <LocalTime iso={subscription.health.since.toISOString()} />
      </span>
    );
  }
  return (
    <span className="badge badge-approved" data-testid="webhook-health">
      healthy
    </span>
  );
}

/** A tenant's webhook subscriptions, read only (managed with `npm run admin -- webhooks`). No secret is ever here. */
export function WebhooksTable({ subscriptions }: { subscriptions: WebhookSubscriptionInfo[] }) {
  return (
    <div className={dataTable.tableWrap}>
      <table className={`${dataTable.table} ${tableCards.cards}`}>
        <thead>
          <tr>
            <th scope="col">Endpoint</th>
            <th scope="col">Format</th>
            <th scope="col">Events</th>
            <th scope="col">Status</th>
            <th scope="col">Last attempt</th>
            <th scope="col">Last success</th>
            <th scope="col" title={`failing after ${FAILING_AFTER} in a row`}>
              Failures in a row
            </th>
          </tr>
        </thead>
        <tbody>
          {subscriptions.map((subscription) => (
            <tr key={subscription.id} data-testid="webhook-row" data-webhook-id={subscription.id}>
              <td>
                <div className="mono">{subscription.url}</div>
                <div className={dataTable.ids}>{subscription.id}</div>
              </td>
              <td data-label="Format" data-testid="webhook-format">
                {WEBHOOK_FORMAT_LABELS[subscription.format]}
              </td>
              <td className={dataTable.ids} data-label="Events">
                {subscription.eventTypes.length ? subscription.eventTypes.map((type) => <div key={type}>{type}</div>) : "all"}
              </td>
              <td data-label="Status">
                <Health subscription={subscription} />
              </td>
              <td className={dataTable.nowrap} data-label="Last attempt">
                <LocalTime iso={iso(subscription.lastAttemptAt)} />
              </td>
              <td className={dataTable.nowrap} data-label="Last success">
                <LocalTime iso={iso(subscription.lastSuccessAt)} />
              </td>
              <td data-label="Failures in a row">
                <span data-testid="webhook-failures">{subscription.consecutiveFailures}</span>
                {subscription.lastError ? <div className="field-error">{subscription.lastError}</div> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
