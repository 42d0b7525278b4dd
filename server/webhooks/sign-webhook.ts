import "server-only";
import { createHmac } from "node:crypto";

/**
 * The Standard Webhooks signature header: `v1,<base64 HMAC-SHA256 of
 * "<id>.<timestamp>.<body>">`, one per key, separated by spaces (during a
 * secret rotation both the new and the previous secret sign).
 */
export function webhookSignature(keys: readonly Buffer[], id: string, timestamp: number, body: string): string {
  return keys.map((key) => `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`, "utf8").digest("base64")}`).join(" ");
}
