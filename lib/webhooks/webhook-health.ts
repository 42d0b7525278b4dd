// A subscription's health as the console and the CLI show it.

/** After this many failed attempts in a row a subscription reads as failing. */
export const FAILING_AFTER = 5;

export type WebhookHealth = { kind: "healthy" } | { kind: "failing"; since: Date };
