import type { StateFilter } from "@/lib/validations/join-requests";
import { isApiClientError } from "@/lib/api-client/api-client-error";
import { EmptyState } from "@/components/ui/empty-state";

const EMPTY: Record<StateFilter, { title: string; body: React.ReactNode }> = {
  pending: {
    title: "No pending requests.",
    body: (
      <>
        Machines deferred by the attestors appear here; run <code>npm run simulate -- unknown</code> to see one.
      </>
    ),
  },
  approved: {
    title: "No approvals waiting for their machine.",
    body: "An approval stays here until the machine's retry uses it or it expires.",
  },
  rejected: { title: "No rejected requests.", body: "Requests you reject, and approvals you withdraw, are listed here." },
  expired: {
    title: "No expired requests.",
    body: "Requests nobody decided within their time, and approvals the machine did not use in time, end up here.",
  },
  consumed: { title: "No consumed approvals.", body: "An approval is consumed when the machine's retry joins the pool with it." },
  all: {
    title: "This pool has no join requests yet.",
    body: (
      <>
        Machines deferred by the attestors appear here; run <code>npm run simulate -- unknown</code> to see one.
      </>
    ),
  },
};

/** SPEC H1: "Needs my approval" on, and nothing left that does */
const NOTHING_AWAITS_ME = {
  title: "Nothing here needs your approval.",
  body: "Requests you approved already are hidden while “Needs my approval” is on; they stay pending until enough others approve.",
};

/** SPEC H2: "Decided by a rule" on, and no rule decided anything in this state */
const NOTHING_DECIDED_BY_RULE = {
  title: "No request here was decided by a rule.",
  body: "Only requests an enforced approval rule approved or rejected show while “Decided by a rule” is on; pending requests have no decision yet.",
};

export function QueueEmpty(props: { state: StateFilter; awaitingMine?: boolean; decidedByRule?: boolean }) {
  const { title, body } = props.decidedByRule ? NOTHING_DECIDED_BY_RULE : props.awaitingMine ? NOTHING_AWAITS_ME : EMPTY[props.state];
  return (
    <EmptyState testId="queue-empty">
      <h2>{title}</h2>
      <p className="muted">{body}</p>
    </EmptyState>
  );
}

export function QueueError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const code = isApiClientError(error) ? error.code : "ERROR";
  return (
    <div role="alert" className="alert">
      <strong>{code}</strong>: {error.message}{" "}
      {code === "UNAUTHENTICATED" ? (
        <a href="/signin">Sign in again</a>
      ) : (
        <button type="button" className="button button-small" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
