import "server-only";
import { webhookSignature } from "./sign-webhook";

export interface WebhookEventJson {
  id: string;
  type: string;
  occurredAt: string;
  tenantId: string;
  data: unknown;
}

export interface SendOutcome {
  ok: boolean;
  statusCode: number | null;
  /** why it failed: "HTTP 500", "timeout after 5000 ms", a network error; null when ok */
  error: string | null;
  durationMs: number;
}

/**
 * One POST of an event to a subscriber, signed the Standard Webhooks way
 * (headers webhook-id, webhook-timestamp, webhook-signature). A 2xx answer
 * within `timeoutMs` (body included) delivers it; anything else, redirects
 * included, is a failure to retry.
 */
export async function sendWebhook(input: {
  url: string;
  event: WebhookEventJson;
  keys: readonly Buffer[];
  timeoutMs: number;
  now: Date;
}): Promise<SendOutcome> {
  const { event, timeoutMs } = input;
  const body = JSON.stringify({ id: event.id, type: event.type, occurredAt: event.occurredAt, tenantId: event.tenantId, data: event.data });
  const timestamp = Math.floor(input.now.getTime() / 1000);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(input.url, {
      method: "POST",
      redirect: "manual",
      signal: controller.signal,
      headers: {
        "content-type": "application/json",
        "user-agent": "BetterCompute-Webhooks/1",
        "webhook-id": event.id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": webhookSignature(input.keys, event.id, timestamp, body),
      },
      body,
    });
    await response.arrayBuffer(); // the answer is read (and ignored), within the timeout
    const ok = response.status >= 200 && response.status < 300;
    return { ok, statusCode: response.status, error: ok ? null : `HTTP ${response.status}`, durationMs: elapsed() };
  } catch (error) {
    const reason = controller.signal.aborted ? `timeout after ${timeoutMs} ms` : networkError(error);
    return { ok: false, statusCode: null, error: reason, durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
  }
}

/** fetch says "fetch failed"; the cause says what (ECONNREFUSED, a DNS failure, ...). */
function networkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const text = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return text.slice(0, 200);
}
