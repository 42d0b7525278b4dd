import "server-only";
import { Gauge, Registry } from "prom-client";
import { decodeTime } from "ulid";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { effectiveStateSql } from "../join-requests/effective-state-sql";
import { readNodeAttestationCounts, setNodeAttestationGauge, type PoolAttestationCount } from "./node-attestation-counts";

// Gauges read from the database at scrape time: the same from any process, so
// only the process answering a scrape reads them (never summed over
// processes). Each query counts only live rows through a partial index — the
// live queue (capped per pool and site by the flood guard) and the pending
// deliveries — never a whole table.

interface PoolCount {
  tenantId: string;
  poolId: string;
  count: number;
}
interface SiteCount {
  tenantId: string;
  siteId: string;
  count: number;
}
interface Backlog {
  tenantId: string;
  count: number;
  oldestEventId: string | null;
}

export interface DatabaseGaugeValues {
  pendingPerPool: PoolCount[];
  unclaimedPerSite: SiteCount[];
  webhookBacklog: Backlog[];
  /** pending notification mails per tenant that has any; absent: not read */
  notificationBacklog?: { tenantId: string; count: number }[];
  /** SPEC I3; absent: not read (the gauge is left out) */
  nodesByAttestation?: PoolAttestationCount[];
}

/** Pending and unexpired at the database's own clock (scrapes carry no `now`). */
const livePendingNow = effectiveStateSql("pending", Prisma.sql`now()`);

/** Live pending requests per pool (join_requests_live_idx), every pool listed so an emptied queue reads 0. */
const pendingPerPool = (db: Db) => db.$queryRaw<PoolCount[]>`
  SELECT p.tenant_id AS "tenantId", p.id AS "poolId", COALESCE(c.n, 0)::int AS count
  FROM pools p LEFT JOIN (
    SELECT pool_id, count(*) AS n FROM join_requests
    WHERE pool_id IS NOT NULL AND ${livePendingNow} GROUP BY pool_id
  ) c ON c.pool_id = p.id`;

/** Live unclaimed requests per site (join_requests_unclaimed_live_idx). */
const unclaimedPerSite = (db: Db) => db.$queryRaw<SiteCount[]>`
  SELECT s.tenant_id AS "tenantId", s.id AS "siteId", COALESCE(c.n, 0)::int AS count
  FROM sites s LEFT JOIN (
    SELECT site_id, count(*) AS n FROM join_requests
    WHERE pool_id IS NULL AND ${livePendingNow} GROUP BY site_id
  ) c ON c.site_id = s.id`;

/** Pending deliveries per tenant with a subscription (webhook_deliveries_pending_order_idx), and the oldest one's event. */
const webhookBacklog = (db: Db) => db.$queryRaw<Backlog[]>`
  SELECT s.tenant_id AS "tenantId", count(d.event_id)::int AS count, min(d.event_id) AS "oldestEventId"
  FROM webhook_subscriptions s
  LEFT JOIN webhook_deliveries d ON d.subscription_id = s.id AND d.status = 'pending'
  GROUP BY s.tenant_id`;

/** Pending notification mails per tenant (notification_deliveries_due_idx: pending rows only). */
const notificationBacklog = (db: Db) => db.$queryRaw<{ tenantId: string; count: number }[]>`
  SELECT tenant_id AS "tenantId", count(*)::int AS count FROM notification_deliveries WHERE status = 'pending' GROUP BY tenant_id`;

export async function readDatabaseGauges(db: Db): Promise<DatabaseGaugeValues> {
  const [pools, sites, backlog, attestation, notifications] = await Promise.all([
    pendingPerPool(db),
    unclaimedPerSite(db),
    webhookBacklog(db),
    readNodeAttestationCounts(db),
    notificationBacklog(db),
  ]);
  return {
    pendingPerPool: pools,
    unclaimedPerSite: sites,
    webhookBacklog: backlog,
    nodesByAttestation: attestation,
    notificationBacklog: notifications,
  };
}

/** An event id's time: its ULID's (`evt_` + ULID, SPEC B6). */
const eventTime = (eventId: string) => decodeTime(eventId.slice("evt_".length).toUpperCase());

/** The gauges as Prometheus text: a fresh registry per scrape, so a deleted pool's series goes with it. */
export async function databaseGaugesText(values: DatabaseGaugeValues, now: number = Date.now()): Promise<string> {
  const registry = new Registry();
  const registers = [registry];
  const pending = new Gauge({
    name: "bc_join_requests_pending",
    help: "Live pending join requests of a pool (unexpired, not yet decided).",
    labelNames: ["tenant", "pool"] as const,
    registers,
  });
  const unclaimed = new Gauge({
    name: "bc_join_requests_unclaimed",
    help: "Live pending site requests no pool has claimed yet.",
    labelNames: ["tenant", "site"] as const,
    registers,
  });
  const backlog = new Gauge({
    name: "bc_webhook_backlog",
    help: "Webhook deliveries not yet delivered (pending, including those waiting for a retry), per tenant.",
    labelNames: ["tenant"] as const,
    registers,
  });
  const oldest = new Gauge({
    name: "bc_webhook_oldest_undelivered_age_seconds",
    help: "Age of the oldest event with a pending delivery, per tenant; 0 when none.",
    labelNames: ["tenant"] as const,
    registers,
  });
  for (const row of values.pendingPerPool) pending.set({ tenant: row.tenantId, pool: row.poolId }, row.count);
  for (const row of values.unclaimedPerSite) unclaimed.set({ tenant: row.tenantId, site: row.siteId }, row.count);
  for (const row of values.webhookBacklog) {
    backlog.set({ tenant: row.tenantId }, row.count);
    const age = row.oldestEventId ? Math.max(0, (now - eventTime(row.oldestEventId)) / 1000) : 0;
    oldest.set({ tenant: row.tenantId }, age);
  }
  if (values.nodesByAttestation) setNodeAttestationGauge(registry, values.nodesByAttestation);
  if (values.notificationBacklog) {
    const mails = new Gauge({
      name: "bc_notification_backlog",
      help: "Notification mails not yet sent (pending: due, waiting for a retry, or a digest whose window is open), per tenant.",
      labelNames: ["tenant"] as const,
      registers,
    });
    for (const row of values.notificationBacklog) mails.set({ tenant: row.tenantId }, row.count);
  }
  return registry.metrics();
}
