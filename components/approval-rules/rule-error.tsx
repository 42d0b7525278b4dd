import type { ApiClientError } from "@/lib/api-client/api-client-error";

/** A failed call of approvalRules/*, shown inside the form or dialog that made it. */
export function RuleError({ error, testId = "rule-error" }: { error: ApiClientError | null; testId?: string }) {
  if (!error) return null;
  return (
    <div role="alert" className="alert" data-testid={testId}>
      <strong>{error.code}</strong>: {error.message}
    </div>
  );
}
