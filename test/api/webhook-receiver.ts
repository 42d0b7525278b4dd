import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

// A webhook receiver on loopback for the delivery tests: records every POST
// and answers as the test says (a status, a delay, or hanging until closed).

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** the status the receiver answered (null: it hung and never answered) */
  status: number | null;
  /** Date.now() when it arrived */
  at: number;
}

/** What to answer the n-th (0-based) POST of an event id: a status, { hang: true }, { drop: true } (reset the connection), or a delay first. */
export type Answer = number | { hang: true } | { drop: true } | { status: number; delayMs: number };

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** the ids of the POSTs answered 2xx, in arrival order */
  delivered(): string[];
  /** resolves when `predicate` holds (checked on every POST and every 20 ms), or rejects after `timeoutMs` */
  waitFor(predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(
  answer: (id: string, nth: number, body: string) => Answer = () => 200,
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const seen = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const id = String(request.headers["webhook-id"] ?? "");
      const nth = seen.get(id) ?? 0;
      seen.set(id, nth + 1);
      const body = Buffer.concat(chunks).toString("utf8");
      const plan = answer(id, nth, body);
      const entry: ReceivedWebhook = {
        id,
        timestamp: String(request.headers["webhook-timestamp"] ?? ""),
        signature: String(request.headers["webhook-signature"] ?? ""),
        body,
        status: null,
        at: Date.now(),
      };
      received.push(entry);
      if (typeof plan === "object" && "hang" in plan) return; // never answers; close() drops it
      if (typeof plan === "object" && "drop" in plan) return void request.socket.destroy(); // the connection dies unanswered
      const [status, delayMs] = typeof plan === "number" ? [plan, 0] : [plan.status, plan.delayMs];
      setTimeout(() => {
        entry.status = status;
        response.writeHead(status, { "content-type": "text/plain" }).end("ok");
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    delivered: () => received.filter((entry) => entry.status !== null && entry.status < 300).map((entry) => entry.id),
    async waitFor(predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`webhook receiver: condition not met within ${timeoutMs} ms (${received.length} POSTs)`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a receiver does with the secret (README): HMAC-SHA256 of "<id>.<timestamp>.<body>", constant-time compare. */
export function signatureVerifies(secret: string, webhook: Pick<ReceivedWebhook, "id" | "timestamp" | "signature" | "body">): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${webhook.id}.${webhook.timestamp}.${webhook.body}`).digest();
  return webhook.signature.split(" ").some((part) => {
    const [version, value] = part.split(",");
    const presented = Buffer.from(value ?? "", "base64");
    return version === "v1" && presented.length === expected.length && timingSafeEqual(presented, expected);
  });
}
