/**
 * What a webhook subscription's body looks like: `standard` is the signed
 * event JSON programs verify; the others are a chat service's incoming-webhook
 * message, for people (docs/events-and-webhooks.md, "Chat services").
 * The same values as the database's enum webhook_format.
 */
export const WEBHOOK_FORMATS = ["standard", "slack", "teams", "google_chat", "mattermost"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];
export type ChatFormat = Exclude<WebhookFormat, "standard">;

export const WEBHOOK_FORMAT_LABELS: Record<WebhookFormat, string> = {
  standard: "Standard Webhooks (signed JSON)",
  slack: "Slack",
  teams: "Microsoft Teams",
  google_chat: "Google Chat",
  mattermost: "Mattermost",
};

export const isWebhookFormat = (value: string): value is WebhookFormat => (WEBHOOK_FORMATS as readonly string[]).includes(value);
