import "server-only";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { databasePoolStats } from "../db/client";

// Every metric this process counts, declared once (docs/operations.md "Metrics and
// health" lists them). They live per process; behind `npm start` the primary
// sums them over its app processes at each scrape (server/metrics/scrape.ts),
// so one scrape of the shared port sees the whole machine.

function createProcessMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const metric = { registers: [registry] };
  return {
    registry,
    methodCalls: new Counter({
      ...metric,
      name: "bc_method_calls_total",
      help: "Published method calls answered, by method and HTTP status.",
      labelNames: ["method", "code"] as const,
    }),
    methodDuration: new Histogram({
      ...metric,
      name: "bc_method_duration_seconds",
      help: "Time to answer a published method call, by method.",
      labelNames: ["method"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
    joins: new Counter({
      ...metric,
      name: "bc_joins_total",
      help: "Machine joins by result: admitted, pending (deferred), challenge (TPM), or refused with the error code in `code`.",
      labelNames: ["result", "code"] as const,
    }),
    joinDeferrals: new Counter({
      ...metric,
      name: "bc_join_deferrals_total",
      help: "Deferral reasons of the joins answered pending (one join may carry several).",
      labelNames: ["reason"] as const,
    }),
    webhookDeliveries: new Counter({
      ...metric,
      name: "bc_webhook_deliveries_total",
      help: "Webhook delivery attempts by result: delivered, retry (failed, due again), dead (given up), gone (deleted meanwhile).",
      labelNames: ["result"] as const,
    }),
    notifications: new Counter({
      ...metric,
      name: "bc_notifications_total",
      help: "Notification mail attempts by result: sent, retry (failed, due again), dead (given up), not_configured (no SMTP server), gone.",
      labelNames: ["result"] as const,
    }),
    retentionMarked: new Counter({
      ...metric,
      name: "bc_retention_marked_total",
      help: "Join requests retention marked expired.",
    }),
    retentionDeleted: new Counter({
      ...metric,
      name: "bc_retention_deleted_total",
      help: "Rows retention deleted, by kind: requests, events, tpm_challenges, inventory_snapshots, approval_rule_hours, notifications.",
      labelNames: ["kind"] as const,
    }),
    ...databasePoolGauges(registry),
  };
}

/** The pg pool's connections, read when scraped (none with the embedded database). */
function databasePoolGauges(registry: Registry) {
  const gauge = (name: string, help: string, read: (stats: NonNullable<ReturnType<typeof databasePoolStats>>) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const stats = databasePoolStats();
        if (stats) this.set(read(stats));
      },
    });
  return {
    poolConnections: gauge("bc_db_pool_connections", "PostgreSQL connections open in the pool (in use + idle).", (s) => s.total),
    poolIdle: gauge("bc_db_pool_idle_connections", "PostgreSQL connections open and idle in the pool.", (s) => s.idle),
    poolWaiting: gauge("bc_db_pool_waiting_clients", "Queries waiting for a pool connection (the pool ran dry).", (s) => s.waiting),
  };
}

export type ProcessMetrics = ReturnType<typeof createProcessMetrics>;

// Once per process: Next bundles server code into several chunks (routes,
// instrumentation), each of which may evaluate this module.
const cache = globalThis as typeof globalThis & { __betterComputeMetrics?: ProcessMetrics };

export function processMetrics(): ProcessMetrics {
  cache.__betterComputeMetrics ??= createProcessMetrics();
  return cache.__betterComputeMetrics;
}
