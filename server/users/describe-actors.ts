import "server-only";
import type { Db } from "../db/client";
import { parseRulePrincipal } from "@/lib/approval-rules/rule-principal";

/**
 * Human labels for the actors recorded on decisions and events: a user's
 * email for `usr_…`, a service key's name for `bcsk_…` (keys of `tenantId`
 * only), a rule's name and version for `rule:<id>@<version>` (SPEC H2, rules
 * of `tenantId` only); anything else (a machine's hostname, "seed") is shown as it is.
 */
export async function describeActors(input: { db: Db; tenantId: string; actors: string[] }): Promise<Record<string, string>> {
  const { db, tenantId } = input;
  const actors = [...new Set(input.actors)];
  const userIds = actors.filter((actor) => actor.startsWith("usr_"));
  const keyIds = actors.filter((actor) => actor.startsWith("bcsk_")).map((actor) => actor.slice("bcsk_".length));
  const rules = actors.flatMap((actor) => {
    const rule = parseRulePrincipal(actor);
    return rule ? [{ actor, ...rule }] : [];
  });
  const [users, keys, ruleNames] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } }) : [],
    keyIds.length ? db.serviceKey.findMany({ where: { id: { in: keyIds }, tenantId }, select: { id: true, name: true } }) : [],
    rules.length
      ? db.approvalRule.findMany({ where: { id: { in: rules.map((rule) => rule.ruleId) }, tenantId }, select: { id: true, name: true } })
      : [],
  ]);
  const labels: Record<string, string> = {};
  for (const user of users) labels[user.id] = user.email;
  for (const key of keys) labels[`bcsk_${key.id}`] = `${key.name} (bcsk_${key.id})`;
  const nameOf = new Map(ruleNames.map((rule) => [rule.id, rule.name]));
  for (const rule of rules) labels[rule.actor] = `rule “${nameOf.get(rule.ruleId) ?? `${rule.ruleId} (deleted)`}” v${rule.version}`;
  return labels;
}
