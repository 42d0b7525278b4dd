import type { WebhookFormat } from "./webhook-format";
import type { WebhookHealth } from "./webhook-health";

/** A tenant's webhook subscription as listings show it: never its signing secret. */
export interface WebhookSubscriptionInfo {
  id: string;
  tenantId: string;
  url: string;
  /** the body: signed event JSON (standard) or a chat service's message */
  format: WebhookFormat;
  /** empty: every type */
  eventTypes: string[];
  createdAt: Date;
  consecutiveFailures: number;
  failingSince: Date | null;
  lastAttemptAt: Date | null;
  lastSuccessAt: Date | null;
  lastError: string | null;
  /** until when the secret before the last rotation still signs */
  previousSecretExpiresAt: Date | null;
  health: WebhookHealth;
}
