import type { ApiClientError } from "@/lib/api-client/api-client-error";

/** A failed decision, shown inside its dialog. */
export function DecisionError({ error }: { error: ApiClientError | null }) {
  if (!error) return null;
  return (
    <div role="alert" className="alert" data-testid="decision-error">
      <strong>{error.code}</strong>: {error.message}
      {error.code === "INVALID_STATE" || error.code === "NOT_FOUND" ? (
        <div className="muted">Someone else may have decided this request first; the queue has been refreshed.</div>
      ) : null}
    </div>
  );
}
