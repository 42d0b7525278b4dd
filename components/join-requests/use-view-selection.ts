"use client";
import { useState } from "react";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";

/**
 * The rows selected for a bulk decision. Selection belongs to one view (its
 * filters and cursor, `viewKey`), and only to rows still pending in it.
 */
export function useViewSelection(viewKey: string, requests: readonly JoinRequestJson[]) {
  const [selection, setSelection] = useState<{ key: string; ids: ReadonlySet<string> }>({ key: "", ids: new Set() });
  const pendingIds = new Set(requests.filter((request) => request.state === "pending").map((request) => request.id));
  const selected = new Set(selection.key === viewKey ? [...selection.ids].filter((id) => pendingIds.has(id)) : []);
  const setSelected = (ids: Iterable<string>) => setSelection({ key: viewKey, ids: new Set(ids) });
  const selectedRequests = requests.filter((request) => selected.has(request.id));
  return { pendingIds, selected, setSelected, selectedRequests };
}
