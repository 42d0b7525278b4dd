import type { ApiClientError } from "@/lib/api-client/api-client-error";

/** A failed method call, shown beside the control or inside the form that made it: its code and the server's message. */
export function CallError({ error, testId }: { error: ApiClientError | null; testId: string }) {
  if (!error) return null;
  return (
    <div role="alert" className="alert" data-testid={testId}>
      <strong>{error.code}</strong>: {error.message}
    </div>
  );
}
