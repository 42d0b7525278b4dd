import { describe, expect, it } from "vitest";
import { bulkApprovalCounts, bulkApprovalText, type BulkApprovalOutcome } from "./bulk-approval-summary";

const approved: BulkApprovalOutcome = { ok: true, state: "approved" };
const waiting: BulkApprovalOutcome = { ok: true, state: "pending" };
const failed: BulkApprovalOutcome = { ok: false };

describe("a bulk approve's outcome (SPEC H1)", () => {
  it("counts completed, still waiting and failed rows", () => {
    expect(bulkApprovalCounts([approved, waiting, waiting, failed])).toEqual({ completed: 1, waiting: 2, failed: 1 });
    expect(bulkApprovalCounts([])).toEqual({ completed: 0, waiting: 0, failed: 0 });
  });

  it.each([
    [[approved, approved], "Approved 2 of 2 requests"],
    [[approved, waiting], "Approved 1 of 2 requests · 1 waits for more approvals"],
    [[waiting, waiting, failed], "Approved 0 of 3 requests · 2 wait for more approvals · 1 failed"],
    [[failed], "Approved 0 of 1 request · 1 failed"],
  ])("%j reads %s", (outcomes, text) => {
    expect(bulkApprovalText(bulkApprovalCounts(outcomes))).toBe(text);
  });
});
