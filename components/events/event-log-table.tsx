import { LocalTime } from "@/components/join-requests/countdown";
import { NavLink } from "@/components/ui/nav-link";
import dataTable from "@/components/ui/data-table.module.css";
import tableCards from "@/components/ui/table-cards.module.css";
import type { EventJson } from "@/lib/events/event-json";
import { shortType } from "./event-log-url";
import { requestPagePath } from "@/lib/url/console-paths";

type Data = Record<string, unknown>;
const text = (value: unknown) => (typeof value === "string" ? value : null);

const BADGE: Record<string, string> = {
  created: "badge-pending",
  approved: "badge-approved",
  rejected: "badge-rejected",
  consumed: "badge-consumed",
  expired: "badge-expired",
};

/** A pool's events, oldest first, one row each: when, what, which request, who, and the details. */
export function EventLogTable({ poolId, events, actors }: { poolId: string; events: EventJson[]; actors: Record<string, string> }) {
  return (
    <div className={dataTable.tableWrap}>
      <table className={`${dataTable.table} ${tableCards.cards}`} data-testid="event-log">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Event</th>
            <th scope="col">Request</th>
            <th scope="col">By</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => {
            const data = (event.data ?? {}) as Data;
            const type = shortType(event.type);
            const requestId = text(data.requestId);
            const actor = text(data.actor);
            return (
              <tr key={event.id} data-testid="event-row" data-event-id={event.id} data-type={event.type}>
                <td className={dataTable.nowrap}>
                  <LocalTime iso={event.occurredAt} />
                </td>
                <td data-label="Event">
                  <span className={`badge ${BADGE[type] ?? ""}`}>{type}</span>
                </td>
                <td className="mono" data-label="Request">
                  {requestId ? <NavLink href={requestPagePath(poolId, requestId)}>{requestId}</NavLink> : "—"}
                </td>
                <td className="mono" data-label="By">
                  {actor ? (actors[actor] ?? actor) : "—"}
                </td>
                <td data-label="Details">
                  {text(data.noun) ? (
                    // an administrative change (SPEC E1): what changed, then where
                    <>
                      {text(data.noun)} {text(data.verb)}
                      {text(data.id) ? (
                        <>
                          {" "}
                          <span className="mono">{text(data.id)}</span>
                        </>
                      ) : null}
                      {text(data.poolId) ? (
                        <>
                          {" "}
                          · <span className="muted">pool </span>
                          <span className="mono">{text(data.poolId)}</span>
                        </>
                      ) : null}
                    </>
                  ) : (
                    <>
                      <span className="muted">pool </span>
                      <span className="mono">{text(data.poolId) ?? "(unclaimed)"}</span>
                    </>
                  )}
                  {text(data.expiresAt) ? (
                    <>
                      {" "}
                      · <span className="muted">valid until</span> <LocalTime iso={text(data.expiresAt)} />
                    </>
                  ) : null}
                  {text(data.previousState) ? (
                    <>
                      {" "}
                      · <span className="muted">was</span> {text(data.previousState)}
                    </>
                  ) : null}
                  {text(data.reason) ? (
                    <>
                      {" "}
                      · <span className="muted">reason</span> “{text(data.reason)}”
                    </>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
