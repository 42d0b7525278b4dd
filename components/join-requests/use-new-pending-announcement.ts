"use client";
import { useState } from "react";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";

/**
 * What the queue's polite live region says when a refresh brings pending
 * requests it had not shown before (issue 15 item 2): a screen-reader user
 * hears that the queue grew, without the focus moving. `viewKey` names what is
 * shown (the filter and how many pages): a new view, or "Load more" bringing
 * older rows, is not news and starts the count afresh.
 */
export function useNewPendingAnnouncement(requests: readonly JoinRequestJson[], viewKey: string): string {
  const [heard, setHeard] = useState(() => ({ viewKey, ids: idsOf(requests), message: "" }));
  if (heard.viewKey !== viewKey) {
    setHeard({ viewKey, ids: idsOf(requests), message: "" });
  } else {
    const fresh = requests.filter((request) => request.state === "pending" && !heard.ids.has(request.id));
    if (fresh.length > 0)
      setHeard({
        viewKey,
        ids: new Set([...heard.ids, ...idsOf(fresh)]),
        message: fresh.length === 1 ? `New pending request: ${fresh[0]!.machine.hostname}` : `${fresh.length} new pending requests`,
      });
  }
  return heard.message;
}

function idsOf(requests: readonly JoinRequestJson[]): Set<string> {
  return new Set(requests.map((request) => request.id));
}
