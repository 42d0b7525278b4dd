import { WebhooksTable } from "@/components/webhooks/webhooks-table";
import { EmptyState } from "@/components/ui/empty-state";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listWebhooksForPrincipal } from "@/server/webhooks/list-webhooks-for-principal";

export const metadata = { title: "Webhooks — Better Compute" };

// Read only: operators manage subscriptions with `npm run admin -- webhooks`.
export default async function WebhooksPage() {
  const { principal } = await requireUser("/webhooks");
  const tenants = await listWebhooksForPrincipal({ db: await getDb(), principal });
  return (
    <>
      <h1>Webhooks</h1>
      <p className="muted">
        Where each tenant&apos;s join-request events are delivered, signed, and how delivery is going: as the event&apos;s JSON for
        programs, or as a Slack, Microsoft Teams, Google Chat or Mattermost message for people (its format). Operators manage them with{" "}
        <code>npm run admin -- webhooks</code> (<code>--format</code> at create, <code>set-format</code> later); signing secrets are shown
        once, there, and never here.
      </p>
      {tenants.length === 0 ? (
        <EmptyState>
          <p>
            <strong>No webhooks to show.</strong>
          </p>
          <p className="muted">
            A webhook carries every event of its tenant, so it is shown to those with a role on all of the tenant&apos;s pools.
          </p>
        </EmptyState>
      ) : (
        tenants.map((tenant) => (
          <section key={tenant.tenantId} aria-labelledby={`tenant-${tenant.tenantId}`} data-testid="tenant-webhooks">
            <h2 id={`tenant-${tenant.tenantId}`}>
              {tenant.tenantName} <span className="mono muted">{tenant.tenantId}</span>
            </h2>
            {tenant.subscriptions.length ? (
              <WebhooksTable subscriptions={tenant.subscriptions} />
            ) : (
              <p className="muted">
                No webhooks: <code>npm run admin -- webhooks create --tenant {tenant.tenantId} --url https://…</code>
              </p>
            )}
          </section>
        ))
      )}
    </>
  );
}
