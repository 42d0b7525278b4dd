import "server-only";
import { env } from "../env";
import type { ChatContext, ChatEvent } from "@/lib/webhooks/chat/chat-message";
import { renderChatBody } from "@/lib/webhooks/chat/render-chat-body";
import type { WebhookFormat } from "@/lib/webhooks/webhook-format";

/**
 * What a subscription receives for an event: the event's JSON (standard), or
 * a chat service's message for people, its link on the console's own origin
 * (NEXTAUTH_URL, as sign-in knows it).
 */
export function webhookBody(format: WebhookFormat, event: ChatEvent, chat: ChatContext | undefined): string {
  if (format === "standard") {
    return JSON.stringify({ id: event.id, type: event.type, occurredAt: event.occurredAt, tenantId: event.tenantId, data: event.data });
  }
  return JSON.stringify(renderChatBody(format, event, chat ?? { poolName: null, machine: null }, env().NEXTAUTH_URL));
}
