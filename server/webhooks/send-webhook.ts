import "server-only";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import type { ChatContext } from "@/lib/webhooks/chat/chat-message";
import type { WebhookFormat } from "@/lib/webhooks/webhook-format";
import { webhookSignature } from "./sign-webhook";
import { webhookBody } from "./webhook-body";
import { checkedLookup, checkWebhookUrlTarget, privateTargetsAllowed, WebhookTargetError } from "./webhook-target";

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

/** The most of a receiver's answer that is read: it is ignored, and a huge one must not fill memory. */
export const MAX_RESPONSE_BYTES = 4 * 1024;

/**
 * One POST of an event to a subscriber, signed the Standard Webhooks way
 * (headers webhook-id, webhook-timestamp, webhook-signature). A 2xx answer
 * within `timeoutMs` (the first 4 KiB of its body included) delivers it;
 * anything else, redirects included, is a failure to retry. The target is
 * checked again here (server/webhooks/webhook-target.ts), and the socket
 * connects to the very address that check resolved.
 *
 * A chat format's body is the chat service's message (server/webhooks/webhook-body.ts),
 * sent with the same headers: the services ignore them, and they still let a
 * relay in between verify and deduplicate what it forwards.
 */
export async function sendWebhook(input: {
  url: string;
  event: WebhookEventJson;
  /** default standard: the event's JSON */
  format?: WebhookFormat;
  /** what a chat message shows beyond the event (the machine, the pool's name) */
  chat?: ChatContext;
  keys: readonly Buffer[];
  timeoutMs: number;
  now: Date;
  allowPrivate?: boolean;
}): Promise<SendOutcome> {
  const { event, timeoutMs } = input;
  const allowPrivate = input.allowPrivate ?? privateTargetsAllowed();
  const body = webhookBody(input.format ?? "standard", event, input.chat);
  const timestamp = Math.floor(input.now.getTime() / 1000);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const url = new URL(input.url);
    checkWebhookUrlTarget(url, allowPrivate);
    const statusCode = await post(
      url,
      body,
      {
        "content-type": "application/json",
        "user-agent": "BetterCompute-Webhooks/1",
        "webhook-id": event.id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": webhookSignature(input.keys, event.id, timestamp, body),
      },
      controller.signal,
      checkedLookup(allowPrivate),
    );
    const ok = statusCode >= 200 && statusCode < 300;
    return { ok, statusCode, error: ok ? null : `HTTP ${statusCode}`, durationMs: elapsed() };
  } catch (error) {
    const reason = controller.signal.aborted ? `timeout after ${timeoutMs} ms` : networkError(error);
    return { ok: false, statusCode: null, error: reason, durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
  }
}

/** The status, once the answer's body has ended or its first MAX_RESPONSE_BYTES were read. */
function post(url: URL, body: string, headers: Record<string, string>, signal: AbortSignal, lookup: LookupFunction): Promise<number> {
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: "POST", headers, signal, lookup, agent: false }, (response) => {
      let read = 0;
      const done = () => {
        response.destroy();
        resolve(response.statusCode ?? 0);
      };
      response.on("data", (chunk: Buffer) => {
        read += chunk.byteLength;
        if (read >= MAX_RESPONSE_BYTES) done();
      });
      response.on("end", done);
      response.on("error", reject);
      // Cut off before its end (the timeout, a dropped connection): a failure.
      response.on("close", () => reject(new Error("the connection closed before the answer ended")));
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** A socket error's code says what (ECONNREFUSED, ENOTFOUND, ...); our own refusals say why. */
function networkError(error: unknown): string {
  if (error instanceof WebhookTargetError) return error.message.slice(0, 200);
  const code = (error as { code?: string }).code;
  const text = code ?? (error instanceof Error ? error.message : String(error));
  return text.slice(0, 200);
}
