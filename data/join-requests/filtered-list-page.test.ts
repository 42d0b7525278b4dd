import { describe, expect, it } from "vitest";
import type { StateFilter } from "@/lib/validations/join-requests";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import type { RequestPage } from "@/lib/join-requests/awaiting-approval-page";
import { readFilteredPage } from "./filtered-list-page";

const RULE = `rule:rule_${"0".repeat(26)}@1`;
const row = (n: number, state: JoinRequestJson["state"], extra: { approvedBy?: string[]; decidedBy?: string } = {}) =>
  ({
    id: `jreq_${String(n).padStart(26, "0")}`,
    state,
    approvals: (extra.approvedBy ?? []).map((by) => ({ by, at: "2026-12-07T10:00:00.000Z", ttlSeconds: 3600 })),
    decidedBy: extra.decidedBy ?? null,
  }) as unknown as JoinRequestJson;

/** The list answering every read with `rows` of the state asked for, and what each read asked. */
function list(rows: JoinRequestJson[]) {
  const reads: { state: StateFilter; limit: number }[] = [];
  const read = async (_cursor: string | undefined, state: StateFilter, limit: number): Promise<RequestPage> => {
    reads.push({ state, limit });
    return { joinRequests: rows.filter((request) => state === "all" || request.state === state) };
  };
  return { read, reads };
}

const ids = (page: RequestPage) => page.joinRequests.map((request) => Number(request.id.slice(5)));
const base = { cursor: undefined, pageSize: 50, awaitingApprovalFrom: null, decidedByRule: false };

describe("readFilteredPage (the queue's Needs my approval and Decided by a rule)", () => {
  const rows = [row(1, "pending", { approvedBy: ["me"] }), row(2, "pending"), row(3, "approved", { decidedBy: RULE }), row(4, "rejected")];

  it("needs my approval: reads pending requests in big pages and keeps those `me` has not approved", async () => {
    const { read, reads } = list(rows);
    expect(ids(await readFilteredPage({ ...base, state: "all", awaitingApprovalFrom: "me", read }))).toEqual([2]);
    expect(reads).toEqual([{ state: "pending", limit: 200 }]);
  });

  it("needs my approval under a state no pending request is in holds nothing, without reading", async () => {
    const { read, reads } = list(rows);
    expect(await readFilteredPage({ ...base, state: "approved", awaitingApprovalFrom: "me", read })).toEqual({ joinRequests: [] });
    expect(reads).toEqual([]);
  });

  it("decided by a rule: keeps the requests a rule decided, in the state asked for", async () => {
    const { read, reads } = list(rows);
    expect(ids(await readFilteredPage({ ...base, state: "all", decidedByRule: true, read }))).toEqual([3]);
    expect(reads).toEqual([{ state: "all", limit: 200 }]);
  });

  it("decided by a rule under pending holds nothing (no decision yet), without reading", async () => {
    const { read, reads } = list(rows);
    expect(await readFilteredPage({ ...base, state: "pending", decidedByRule: true, read })).toEqual({ joinRequests: [] });
    expect(reads).toEqual([]);
  });
});
