import { describe, expect, it } from "vitest";
import { ApiError } from "../api/errors";
import { observeJoin, observeMethodCall, observeNotificationAttempt, observeRetention, observeWebhookAttempt } from "./observe";
import { processMetrics } from "./process-metrics";

// What each observed place adds to the process's metrics (deltas: the
// registry is one per process and other tests in this file add to it too).

async function value(
  metric: { get(): Promise<{ values: { labels: Partial<Record<string, string | number>>; value: number }[] }> },
  labels: Record<string, string> = {},
) {
  const { values } = await metric.get();
  const matching = values.filter((v) => Object.entries(labels).every(([name, wanted]) => String(v.labels[name] ?? "") === wanted));
  return matching.reduce((total, v) => total + v.value, 0);
}

async function delta(read: () => Promise<number>, act: () => Promise<unknown> | void): Promise<number> {
  const before = await read();
  await act();
  return (await read()) - before;
}

describe("observeJoin", () => {
  const { joins, joinDeferrals } = processMetrics();

  it("counts a pending join and each of its deferral reasons", async () => {
    const pending = { status: "pending" as const, reasons: ["unknown-to-discovery" as const, "placeholder-hardware-id" as const] };
    expect(
      await delta(
        () => value(joins, { result: "pending" }),
        () => observeJoin(async () => pending),
      ),
    ).toBe(1);
    expect(
      await delta(
        () => value(joinDeferrals, { reason: "placeholder-hardware-id" }),
        () => observeJoin(async () => pending),
      ),
    ).toBe(1);
  });

  it("counts admitted and challenge by their status", async () => {
    expect(
      await delta(
        () => value(joins, { result: "admitted" }),
        () => observeJoin(async () => ({ status: "admitted" as const })),
      ),
    ).toBe(1);
    expect(
      await delta(
        () => value(joins, { result: "challenge" }),
        () => observeJoin(async () => ({ status: "challenge" as const })),
      ),
    ).toBe(1);
  });

  it("counts a refusal with the code the caller sees, and still throws it", async () => {
    const refusal = new ApiError("JOIN_REJECTED", "rejected");
    const read = () => value(joins, { result: "refused", code: "JOIN_REJECTED" });
    expect(await delta(read, () => expect(observeJoin(() => Promise.reject(refusal))).rejects.toBe(refusal))).toBe(1);
    const outage = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const unavailable = () => value(joins, { result: "refused", code: "UNAVAILABLE" });
    expect(await delta(unavailable, () => expect(observeJoin(() => Promise.reject(outage))).rejects.toBe(outage))).toBe(1);
  });
});

describe("observeMethodCall, observeWebhookAttempt, observeRetention", () => {
  const { methodCalls, methodDuration, webhookDeliveries, notifications, retentionMarked, retentionDeleted } = processMetrics();

  it("a call counts once per method and status, and its time lands in the method's histogram", async () => {
    const count = () => value(methodDuration, { method: "test/method", le: "+Inf" });
    expect(
      await delta(
        () => value(methodCalls, { method: "test/method", code: "409" }),
        () => observeMethodCall("test/method", 409, 0.02),
      ),
    ).toBe(1);
    expect(await delta(count, () => observeMethodCall("test/method", 200, 0.02))).toBe(1);
  });

  it("a webhook attempt counts by result", async () => {
    expect(
      await delta(
        () => value(webhookDeliveries, { result: "dead" }),
        () => observeWebhookAttempt("dead"),
      ),
    ).toBe(1);
  });

  it("a notification attempt counts by result (sent, failed for a retry, dead)", async () => {
    for (const result of ["sent", "retry", "dead", "not_configured"] as const) {
      expect(
        await delta(
          () => value(notifications, { result }),
          () => observeNotificationAttempt(result),
        ),
      ).toBe(1);
    }
  });

  it("a retention pass adds what it marked and deleted", async () => {
    const pass = { marked: 3, deletedRequests: 2, deletedEvents: 5, deletedTpmChallenges: 1, deletedSnapshots: 4 };
    expect(
      await delta(
        () => value(retentionMarked),
        () => observeRetention(pass),
      ),
    ).toBe(3);
    expect(
      await delta(
        () => value(retentionDeleted, { kind: "events" }),
        () => observeRetention(pass),
      ),
    ).toBe(5);
    expect(
      await delta(
        () => value(retentionDeleted, { kind: "tpm_challenges" }),
        () => observeRetention(pass),
      ),
    ).toBe(1);
    expect(
      await delta(
        () => value(retentionDeleted, { kind: "inventory_snapshots" }),
        () => observeRetention(pass),
      ),
    ).toBe(4);
  });
});
