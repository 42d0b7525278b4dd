// A subscription's health as the console and the CLI show it.
import { FAILING_AFTER, type WebhookHealth } from "@/lib/webhooks/webhook-health";

export interface WebhookHealthFacts {
  consecutiveFailures: number;
  failingSince: Date | null;
}

export function webhookHealth(subscription: WebhookHealthFacts): WebhookHealth {
  if (subscription.consecutiveFailures >= FAILING_AFTER && subscription.failingSince) {
    return { kind: "failing", since: subscription.failingSince };
  }
  return { kind: "healthy" };
}
