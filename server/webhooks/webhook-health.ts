// A subscription's health as the console and the CLI show it.

/** After this many failed attempts in a row a subscription reads as failing. */
export const FAILING_AFTER = 5;

export interface WebhookHealthFacts {
  consecutiveFailures: number;
  failingSince: Date | null;
}

export type WebhookHealth = { kind: "healthy" } | { kind: "failing"; since: Date };

export function webhookHealth(subscription: WebhookHealthFacts): WebhookHealth {
  if (subscription.consecutiveFailures >= FAILING_AFTER && subscription.failingSince) {
    return { kind: "failing", since: subscription.failingSince };
  }
  return { kind: "healthy" };
}
