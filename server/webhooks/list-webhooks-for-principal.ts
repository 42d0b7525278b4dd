import "server-only";
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { listWebhookSubscriptions, type WebhookSubscriptionInfo } from "./webhook-subscriptions";

export interface TenantWebhooks {
  tenantId: string;
  tenantName: string;
  subscriptions: WebhookSubscriptionInfo[];
}

/**
 * The webhook subscriptions the console shows a principal, read only: a
 * subscription carries every event of its tenant, so only a role on every pool
 * of the tenant (pool-viewer or pool-admin) shows them. Never the secret.
 */
export async function listWebhooksForPrincipal(input: { db: Db; principal: Principal }): Promise<TenantWebhooks[]> {
  const { db, principal } = input;
  const tenantIds = [...new Set(principal.grants.filter((grant) => grant.poolId === null).map((grant) => grant.tenantId))];
  if (tenantIds.length === 0) return [];
  const [tenants, subscriptions] = await Promise.all([
    db.tenant.findMany({ where: { id: { in: tenantIds } }, select: { id: true, name: true }, orderBy: { id: "asc" } }),
    listWebhookSubscriptions({ db, tenantIds }),
  ]);
  return tenants.map((tenant) => ({
    tenantId: tenant.id,
    tenantName: tenant.name,
    subscriptions: subscriptions.filter((subscription) => subscription.tenantId === tenant.id),
  }));
}
