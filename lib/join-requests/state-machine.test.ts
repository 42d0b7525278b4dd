import { describe, expect, it } from "vitest";
import { decideApproval, decideRejection, decideRetry, effectiveState, isVisibleToPool } from "./state-machine";

const now = new Date("2026-12-02T12:00:00.000Z");
const later = new Date(now.getTime() + 60_000);
const earlier = new Date(now.getTime() - 1);

describe("effectiveState", () => {
  it.each([
    ["pending", later, "pending"],
    ["pending", earlier, "expired"],
    ["pending", now, "expired"], // expiresAt <= now
    ["approved", later, "approved"],
    ["approved", earlier, "expired"],
    ["rejected", earlier, "rejected"],
    ["consumed", earlier, "consumed"],
    ["expired", later, "expired"],
  ] as const)("stored %s expiring %s reads as %s", (state, expiresAt, expected) => {
    expect(effectiveState({ state, expiresAt }, now)).toBe(expected);
  });
});

describe("decideApproval", () => {
  it("approves a pending request", () => {
    expect(decideApproval({ state: "pending", expiresAt: later, poolId: null }, "gpu-a", now)).toEqual({
      kind: "transition",
      from: "pending",
      to: "approved",
    });
  });
  it("leaves an approval for the same pool unchanged", () => {
    expect(decideApproval({ state: "approved", expiresAt: later, poolId: "gpu-a" }, "gpu-a", now).kind).toBe("unchanged");
  });
  it.each([
    ["rejected", later],
    ["consumed", later],
    ["expired", later],
    ["pending", earlier],
    ["approved", earlier],
  ] as const)("refuses %s (expiring %s)", (state, expiresAt) => {
    const decision = decideApproval({ state, expiresAt, poolId: "gpu-a" }, "gpu-a", now);
    expect(decision.kind).toBe("refused");
  });
});

describe("decideRejection", () => {
  it.each(["pending", "approved"] as const)("rejects a live %s request, remembering where it was", (state) => {
    expect(decideRejection({ state, expiresAt: later }, now)).toEqual({ kind: "transition", from: state, to: "rejected" });
  });
  it("leaves a rejection unchanged", () => {
    expect(decideRejection({ state: "rejected", expiresAt: earlier }, now).kind).toBe("unchanged");
  });
  it.each([
    ["consumed", later],
    ["expired", later],
    ["approved", earlier],
  ] as const)("refuses %s (expiring %s)", (state, expiresAt) => {
    expect(decideRejection({ state, expiresAt }, now).kind).toBe("refused");
  });
});

describe("isVisibleToPool", () => {
  const pool = { id: "gpu-a", siteId: "fra1", tenantId: "acme" };
  it("sees its own and its site's unclaimed requests", () => {
    expect(isVisibleToPool({ poolId: "gpu-a", siteId: "fra1", tenantId: "acme" }, pool)).toBe(true);
    expect(isVisibleToPool({ poolId: null, siteId: "fra1", tenantId: "acme" }, pool)).toBe(true);
  });
  it("does not see another pool's, another site's or another tenant's requests", () => {
    expect(isVisibleToPool({ poolId: "gpu-b", siteId: "fra1", tenantId: "acme" }, pool)).toBe(false);
    expect(isVisibleToPool({ poolId: null, siteId: "ams1", tenantId: "acme" }, pool)).toBe(false);
    expect(isVisibleToPool({ poolId: null, siteId: "fra1", tenantId: "globex" }, pool)).toBe(false);
  });
});

describe("decideRetry (the machine retries with a request's CSR)", () => {
  it.each([
    ["pending", later, { kind: "wait" }],
    ["approved", later, { kind: "consume" }],
    ["pending", earlier, { kind: "start-over", markExpired: true }],
    ["approved", earlier, { kind: "start-over", markExpired: true }],
    ["expired", later, { kind: "start-over", markExpired: false }],
  ] as const)("stored %s expiring %s → %o", (state, expiresAt, expected) => {
    expect(decideRetry({ state, expiresAt }, now)).toEqual(expected);
  });
  it.each([
    ["rejected", "JOIN_REJECTED"],
    ["consumed", "INVALID_STATE"],
  ] as const)("refuses a %s request with %s, whatever its expiry", (state, code) => {
    for (const expiresAt of [earlier, later]) {
      expect(decideRetry({ state, expiresAt }, now)).toMatchObject({ kind: "refused", code });
    }
  });
});
