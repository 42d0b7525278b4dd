import { describe, expect, it } from "vitest";
import {
  approvalCountText,
  approvalEffectText,
  approvalProgress,
  approvalRecordedText,
  approvalsRequiredIn,
  waitingForMineText,
} from "./approval-progress";

const approval = (by: string) => ({ by, at: "2026-12-06T10:00:00.000Z", ttlSeconds: 3600 });
const request = (approvalsRequired: number, ...by: string[]) => ({ approvalsRequired, approvals: by.map(approval) });

describe("approvalProgress and its words (SPEC H1)", () => {
  it.each([
    // required, given by, me → what the approve dialog says
    [2, [], "usr_me", "1 more needed after yours"],
    [2, ["usr_other"], "usr_me", "Your approval completes it"],
    [2, ["usr_me"], "usr_me", "You approved this · waiting for 1 more"],
    [3, [], "usr_me", "2 more needed after yours"],
    [3, ["usr_other"], "usr_me", "1 more needed after yours"],
    [3, ["usr_me"], "usr_me", "You approved this · waiting for 2 more"],
    [5, ["a", "b", "c", "usr_me"], "usr_me", "You approved this · waiting for 1 more"],
    [1, [], "usr_me", "Your approval completes it"],
  ])("count %i, approved by %j, signed in as %s: %s", (required, by, me, text) => {
    expect(approvalEffectText(approvalProgress(request(required, ...by), me))).toBe(text);
  });

  it("counts what is given, needed now and after mine", () => {
    expect(approvalProgress(request(3, "a"), "me")).toEqual({ given: 1, required: 3, mine: false, missing: 2, afterMine: 1 });
    expect(approvalProgress(request(3, "a", "me"), "me")).toEqual({ given: 2, required: 3, mine: true, missing: 1, afterMine: 1 });
    // more approvals than required (the count was lowered for later requests): nothing missing, never negative
    expect(approvalProgress(request(1, "a", "b"), "me")).toMatchObject({ missing: 0, afterMine: 0 });
  });

  it("says the count as 'N of M approvals'", () => {
    expect(approvalCountText({ given: 1, required: 2 })).toBe("1 of 2 approvals");
    expect(approvalCountText({ given: 0, required: 1 })).toBe("0 of 1 approval");
    expect(approvalCountText({ given: 3, required: 2 })).toBe("2 of 2 approvals");
  });

  it("says what a recorded approval leaves", () => {
    expect(approvalRecordedText(request(2, "me"))).toBe("Approval recorded · 1 more needed");
    expect(approvalRecordedText(request(3, "me"))).toBe("Approval recorded · 2 more needed");
    expect(waitingForMineText(0)).toBe("You approved this");
  });

  it("an unclaimed site request needs what the deciding pool requires, unless its own count is higher", () => {
    const unclaimed = { poolId: null, approvalsRequired: 1, approvals: [] };
    expect(approvalsRequiredIn(unclaimed, 2)).toBe(2);
    expect(approvalsRequiredIn({ ...unclaimed, approvalsRequired: 3 }, 2)).toBe(3);
    expect(approvalsRequiredIn({ ...unclaimed, poolId: "gpu-c" }, 2)).toBe(1);
    expect(approvalEffectText(approvalProgress(unclaimed, "me", 2))).toBe("1 more needed after yours");
    expect(approvalEffectText(approvalProgress({ ...unclaimed, poolId: "gpu-a" }, "me", 2))).toBe("Your approval completes it");
  });
});
