import type { EventJson } from "@/lib/events/event-json";
import { LocalTime } from "./countdown";
import styles from "./request-detail.module.css";

const TITLES: Record<string, string> = {
  "security.join-request.created": "Deferred: the machine asked to join",
  "security.join-request.approval-recorded": "Approval recorded: more are needed",
  "security.join-request.approved": "Approved",
  "security.join-request.rejected": "Rejected",
  "security.join-request.consumed": "Consumed: the machine joined with the approval",
  "security.join-request.expired": "Expired",
  "security.join-request.rule-matched": "An approval rule matched",
};

type Data = Record<string, unknown>;
const text = (value: unknown) => (typeof value === "string" ? value : null);

/** Who did what to a request, and when and why, from its events (SPEC B6). */
export function RequestTimeline({ events, actors }: { events: EventJson[]; actors: Record<string, string> }) {
  if (events.length === 0) return <p className="muted">No events recorded for this request.</p>;
  return (
    <ol className={styles.timeline} data-testid="timeline">
      {events.map((event) => {
        const data = (event.data ?? {}) as Data;
        const actor = text(data.actor);
        const withdrew = event.type === "security.join-request.rejected" && data.previousState === "approved";
        return (
          <li key={event.id} data-testid="timeline-event" data-type={event.type}>
            <strong>{withdrew ? "Approval withdrawn (rejected)" : (TITLES[event.type] ?? event.type)}</strong>
            <div className={styles.eventTime}>
              <LocalTime iso={event.occurredAt} />
            </div>
            <div className="muted">
              {actor ? (
                <>
                  by <span className="mono">{actors[actor] ?? actor}</span>
                </>
              ) : null}
              {text(data.poolId) ? (
                <>
                  {" "}
                  · pool <span className="mono">{text(data.poolId)}</span>
                </>
              ) : null}
              {event.type === "security.join-request.approved" && text(data.expiresAt) ? (
                <>
                  {" "}
                  · valid until <LocalTime iso={text(data.expiresAt)} />
                </>
              ) : null}
              {Array.isArray(data.reasons) ? <> · {(data.reasons as string[]).join(", ")}</> : null}
            </div>
            {text(data.reason) ? <blockquote className={styles.reason}>{text(data.reason)}</blockquote> : null}
          </li>
        );
      })}
    </ol>
  );
}
