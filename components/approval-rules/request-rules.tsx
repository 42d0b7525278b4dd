import { NavLink } from "@/components/ui/nav-link";
import type { EventJson } from "@/lib/events/event-json";
import { parseRulePrincipal } from "@/lib/approval-rules/rule-principal";
import { ruleHref } from "./rule-paths";

const RULE_MATCHED = "security.join-request.rule-matched";
type Data = Record<string, unknown>;
const text = (value: unknown) => (typeof value === "string" ? value : null);

/** What a match came to, from its rule-matched event's data (finish-evaluation.ts). */
function matchOutcome(data: Data): string {
  const would = text(data.would) ?? "match";
  if (data.error !== undefined) return `failed: ${text(data.error) ?? "error"}`;
  if (data.throttled === true) return `would ${would}, held back: past its hourly cap`;
  if (data.blocked !== undefined) return `would ${would}, but no rule may: ${text(data.blocked)}`;
  if (typeof data.raisedTo === "number") return `raised the approvals required to ${data.raisedTo}`;
  return `would ${would === "requireApprovals" ? "require more approvals" : would}`;
}

/**
 * SPEC H2 on a request's page: the rule that decided it (its decidedBy,
 * `rule:<id>@<version>`), and every rule that matched it without deciding
 * (shadow, throttled, blocked, failed), each named and linked to its page.
 * Nothing when no rule had a part in it.
 */
export function RequestRules(props: { poolId: string; decidedBy: string | null; events: EventJson[]; actors: Record<string, string> }) {
  const decided = parseRulePrincipal(props.decidedBy);
  const matches = props.events.filter((event) => event.type === RULE_MATCHED);
  if (!decided && matches.length === 0) return null;
  const link = (actor: string, ruleId: string, poolId: string | null) => (
    <NavLink href={ruleHref(poolId ?? props.poolId, ruleId)}>{props.actors[actor] ?? actor}</NavLink>
  );
  return (
    <>
      <dt>Rules</dt>
      <dd data-testid="request-rules">
        {decided ? (
          <p data-testid="decided-by-rule" style={{ margin: 0 }}>
            Decided by {link(props.decidedBy!, decided.ruleId, props.poolId)}
          </p>
        ) : null}
        {matches.length > 0 ? (
          <ul style={{ margin: 0, paddingLeft: "1.1rem" }}>
            {matches.map((event) => {
              const data = (event.data ?? {}) as Data;
              const ruleId = text(data.ruleId);
              const actor = text(data.actor);
              if (!ruleId || !actor) return null;
              return (
                <li key={event.id} data-testid="rule-match" data-mode={text(data.mode)}>
                  {link(actor, ruleId, text(data.rulePoolId))} ({text(data.mode)}): {matchOutcome(data)}
                </li>
              );
            })}
          </ul>
        ) : null}
      </dd>
    </>
  );
}
