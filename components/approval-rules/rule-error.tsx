import type { ApiClientError } from "@/lib/api-client/api-client-error";
import { CallError } from "@/components/ui/call-error";

/** A failed call of approvalRules/*, shown inside the form or dialog that made it. */
export function RuleError({ error, testId = "rule-error" }: { error: ApiClientError | null; testId?: string }) {
  return <CallError error={error} testId={testId} />;
}
