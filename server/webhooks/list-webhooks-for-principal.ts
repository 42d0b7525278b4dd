import "server-only";
import type { Principal } from "../auth/principal";
import type { Role } from "../auth/roles";
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
 * URLs often carry a token: roles below tenant-wide admin (today a
 * tenant-wide pool-viewer) see only their scheme and host.
 */
export async function listWebhooksForPrincipal(input: { db: Db; principal: Principal }): Promise<TenantWebhooks[]> {
  const { db, principal } = input;
  const tenantIds = [...new Set(principal.grants.filter((grant) => grant.poolId === null).map((grant) => grant.tenantId))];
  if (tenantIds.length === 0) return [];
  const [tenants, subscriptions] = await Promise.all([
    db.tenant.findMany({ where: { id: { in: tenantIds } }, select: { id: true, name: true }, orderBy: { id: "asc" } }),
    listWebhookSubscriptions({ db, tenantIds }),
  ]);
  return tenants.map((tenant) => {
    const fullUrls = seesFullUrls(principal, tenant.id);
    return {
      tenantId: tenant.id,
      tenantName: tenant.name,
      subscriptions: subscriptions
        .filter((subscription) => subscription.tenantId === tenant.id)
        .map((subscription) => (fullUrls ? subscription : { ...subscription, url: `${new URL(subscription.url).origin}/…` })),
    };
  });
}

/** Roles that see only scheme and host; any role above them (pool-admin, tenant-admin) sees the whole URL. */
const HOST_ONLY_ROLES: readonly Role[] = ["pool_viewer"];

function seesFullUrls(principal: Principal, tenantId: string): boolean {
  return principal.grants.some((grant) => grant.tenantId === tenantId && grant.poolId === null && !HOST_ONLY_ROLES.includes(grant.role));
}
