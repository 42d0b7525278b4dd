import { describe, expect, it } from "vitest";
import type { JoinRequestJson } from "./join-request-json";
import { awaitsApprovalFrom, fillFilteredPage, type RequestPage } from "./awaiting-approval-page";

const request = (n: number, approvedBy: string[] = [], state: JoinRequestJson["state"] = "pending") =>
  ({
    id: `jreq_${String(n).padStart(26, "0")}`,
    state,
    approvals: approvedBy.map((by) => ({ by, at: "2026-12-06T10:00:00.000Z", ttlSeconds: 3600 })),
  }) as unknown as JoinRequestJson;

/** The list as the server pages it (SPEC B2): ascending ids after the cursor, nextCursor only when more follow. */
function server(rows: JoinRequestJson[], limit: number) {
  const reads: (string | undefined)[] = [];
  const read = async (cursor: string | undefined): Promise<RequestPage> => {
    reads.push(cursor);
    const after = rows.filter((row) => cursor === undefined || row.id > cursor);
    const page = after.slice(0, limit);
    return after.length > limit ? { joinRequests: page, nextCursor: page.at(-1)!.id } : { joinRequests: page };
  };
  return { read, reads };
}

const ids = (page: RequestPage) => page.joinRequests.map((row) => Number(row.id.slice(5)));

describe("awaitsApprovalFrom (SPEC H1: needs my approval)", () => {
  it("keeps pending requests I have not approved, whoever else has", () => {
    expect(awaitsApprovalFrom(request(1), "me")).toBe(true);
    expect(awaitsApprovalFrom(request(1, ["other"]), "me")).toBe(true);
    expect(awaitsApprovalFrom(request(1, ["other", "me"]), "me")).toBe(false);
    expect(awaitsApprovalFrom(request(1, [], "approved"), "me")).toBe(false);
    expect(awaitsApprovalFrom(request(1, [], "rejected"), "me")).toBe(false);
  });
});

describe("fillFilteredPage", () => {
  // 1..10, of which I approved the odd ones
  const rows = Array.from({ length: 10 }, (_, index) => request(index + 1, (index + 1) % 2 ? ["me"] : []));
  const keep = (row: JoinRequestJson) => awaitsApprovalFrom(row, "me");

  it("fills a page from as many server pages as it takes; the cursor walks on to the end", async () => {
    const { read } = server(rows, 3);
    const first = await fillFilteredPage({ cursor: undefined, pageSize: 2, maxReads: 10, read, keep });
    expect(ids(first)).toEqual([2, 4]);
    expect(first.nextCursor).toBe(rows[3]!.id);
    const second = await fillFilteredPage({ cursor: first.nextCursor, pageSize: 2, maxReads: 10, read, keep });
    expect(ids(second)).toEqual([6, 8]);
    const third = await fillFilteredPage({ cursor: second.nextCursor, pageSize: 2, maxReads: 10, read, keep });
    expect(ids(third)).toEqual([10]);
    expect(third.nextCursor).toBeUndefined();
  });

  it("a full page ending at the list's last row has no next cursor", async () => {
    const { read } = server(rows.slice(0, 4), 10);
    expect(await fillFilteredPage({ cursor: undefined, pageSize: 2, maxReads: 10, read, keep })).toEqual({
      joinRequests: [rows[1], rows[3]],
    });
  });

  it("stops after maxReads with what it has, the cursor at the last id read", async () => {
    const { read, reads } = server(rows, 2);
    const page = await fillFilteredPage({ cursor: undefined, pageSize: 5, maxReads: 2, read, keep });
    expect(ids(page)).toEqual([2, 4]);
    expect(page.nextCursor).toBe(rows[3]!.id);
    expect(reads).toHaveLength(2);
  });

  it("reads on past maxReads while it holds nothing: an empty page means nothing more to keep", async () => {
    const mostlyMine = [...rows.slice(0, 9).map((row) => request(Number(row.id.slice(5)), ["me"])), rows[9]!];
    const { read, reads } = server(mostlyMine, 2);
    expect(ids(await fillFilteredPage({ cursor: undefined, pageSize: 5, maxReads: 1, read, keep }))).toEqual([10]);
    expect(reads).toHaveLength(5);
    const { read: readAllMine } = server(mostlyMine.slice(0, 9), 2);
    expect(await fillFilteredPage({ cursor: undefined, pageSize: 5, maxReads: 1, read: readAllMine, keep })).toEqual({ joinRequests: [] });
  });
});
