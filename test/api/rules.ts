import { expect } from "vitest";
import { callMethod } from "./api-client";
import { eventsOf, type World } from "./world";

// SPEC H2: approval rules for the API tests, made through approvalRules/create as an operator would.

export interface RuleSpec {
  name?: string;
  expression: string;
  action: Record<string, unknown>;
  mode?: "enforce" | "shadow";
  maxPerHour?: number;
}

/** A rule in `poolId`, created by the world's pool-admin key; returns its id. */
export async function createRule(world: World, poolId: string, spec: RuleSpec): Promise<string> {
  const response = await callMethod(
    "approvalRules/create",
    { tenantId: world.tenantId, poolId, name: spec.name ?? "a rule", mode: "enforce", ...spec },
    { bearer: world.keys.admin },
  );
  expect(response.status, response.text).toBe(200);
  return response.body.rule.id as string;
}

/** The rule-matched events of a request, oldest first (their data). */
export async function ruleMatches(requestId: string): Promise<Record<string, unknown>[]> {
  return (await eventsOf(requestId))
    .filter((event) => event.type === "security.join-request.rule-matched")
    .map((event) => event.data as Record<string, unknown>);
}
