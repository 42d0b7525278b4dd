import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { describe, expect, it } from "vitest";
import { eventIdFloor } from "@/lib/ids";
import { databaseGaugesText } from "./database-gauges";

describe("databaseGaugesText", () => {
  it("one series per pool, site and tenant (and per pool and attestation state); the oldest pending event's age from its id's time", async () => {
    const now = Date.parse("2026-12-04T12:00:00.000Z");
    const text = await databaseGaugesText(
      {
        pendingPerPool: [
          { tenantId: "acme", poolId: "gpu-a", count: 3 },
          { tenantId: "acme", poolId: "gpu-b", count: 0 },
        ],
        unclaimedPerSite: [{ tenantId: "acme", siteId: "fra1", count: 2 }],
        webhookBacklog: [
          // an id of that millisecond: newId, monotonic, gives a later one once the process has made ids since
          { tenantId: "acme", count: 4, oldestEventId: eventIdFloor(now - 90_000) },
          { tenantId: "globex", count: 0, oldestEventId: null },
        ],
        nodesByAttestation: [
          { tenantId: "acme", poolId: "gpu-a", state: "trusted", count: 5 },
          { tenantId: "acme", poolId: "gpu-a", state: "stale", count: 0 },
        ],
        notificationBacklog: [{ tenantId: "acme", count: 7 }],
      },
      now,
    );
    const values = Object.fromEntries(
      parsePrometheusTextFormat(text).flatMap((family) =>
        family.metrics.map((metric) => [`${family.name}${JSON.stringify(metric.labels)}`, "value" in metric ? Number(metric.value) : NaN]),
      ),
    );
    expect(values).toEqual({
      'bc_join_requests_pending{"tenant":"acme","pool":"gpu-a"}': 3,
      'bc_join_requests_pending{"tenant":"acme","pool":"gpu-b"}': 0,
      'bc_join_requests_unclaimed{"tenant":"acme","site":"fra1"}': 2,
      'bc_webhook_backlog{"tenant":"acme"}': 4,
      'bc_webhook_backlog{"tenant":"globex"}': 0,
      'bc_webhook_oldest_undelivered_age_seconds{"tenant":"acme"}': 90,
      'bc_webhook_oldest_undelivered_age_seconds{"tenant":"globex"}': 0,
      'bc_nodes_by_attestation{"tenant":"acme","pool":"gpu-a","state":"trusted"}': 5,
      'bc_nodes_by_attestation{"tenant":"acme","pool":"gpu-a","state":"stale"}': 0,
      'bc_notification_backlog{"tenant":"acme"}': 7,
    });
  });
});
