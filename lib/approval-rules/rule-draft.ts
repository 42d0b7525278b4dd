import { actionKind, type ActionKind, type RuleAction, type RuleJson, type RuleMode } from "./rule-schemas";
import { TTL_DEFAULT_SECONDS } from "../validations/join-requests";

// The console's rule editor (SPEC H2) as plain data: the form's fields as
// typed (strings where the user types numbers, so a half-typed value is kept
// and the server names what is wrong with it), and what they become as
// approvalRules/create, update and test inputs.

export interface RuleDraft {
  name: string;
  expression: string;
  kind: ActionKind;
  ttlSeconds: string;
  reason: string;
  count: string;
  mode: RuleMode;
  maxPerHour: string;
}

export const EMPTY_DRAFT: RuleDraft = {
  name: "",
  expression: "",
  kind: "approve",
  ttlSeconds: String(TTL_DEFAULT_SECONDS),
  reason: "",
  count: "2",
  mode: "shadow",
  maxPerHour: "100",
};

export function draftOf(rule: Pick<RuleJson, "name" | "expression" | "action" | "mode" | "maxPerHour">): RuleDraft {
  const action = rule.action as RuleAction;
  return {
    ...EMPTY_DRAFT,
    name: rule.name,
    expression: rule.expression,
    kind: actionKind(action),
    ttlSeconds: "approve" in action ? String(action.approve.ttlSeconds) : EMPTY_DRAFT.ttlSeconds,
    reason: "reject" in action ? (action.reject.reason ?? "") : "",
    count: "requireApprovals" in action ? String(action.requireApprovals.count) : EMPTY_DRAFT.count,
    mode: rule.mode,
    maxPerHour: rule.maxPerHour === null ? EMPTY_DRAFT.maxPerHour : String(rule.maxPerHour),
  };
}

/** A typed number as sent: an integer when it is one, else the text, so the server's 400 names the field. */
const numberOf = (text: string): number | string => (/^\s*-?\d+\s*$/.test(text) ? Number(text) : text);

/** The draft's action as the methods take it (only the chosen kind's fields). */
export function draftAction(draft: RuleDraft): Record<string, unknown> {
  if (draft.kind === "approve") return { approve: { ttlSeconds: numberOf(draft.ttlSeconds) } };
  if (draft.kind === "reject") return { reject: draft.reason.trim() ? { reason: draft.reason.trim() } : {} };
  return { requireApprovals: { count: numberOf(draft.count) } };
}

export interface DraftFields {
  name: string;
  expression: string;
  action: Record<string, unknown>;
  mode: RuleMode;
  maxPerHour?: number | string;
}

/** Create's or update's fields: maxPerHour only for an approve rule (the server refuses it elsewhere). */
export function draftFields(draft: RuleDraft): DraftFields {
  return {
    name: draft.name.trim(),
    expression: draft.expression,
    action: draftAction(draft),
    mode: draft.mode,
    ...(draft.kind === "approve" ? { maxPerHour: numberOf(draft.maxPerHour) } : {}),
  };
}

/** approvalRules/test's `rule`: the draft as it stands, before it is saved. */
export const draftTestRule = (draft: RuleDraft) => ({ expression: draft.expression, action: draftAction(draft) });

/** A rule's action in words, for its row on the Rules page. */
export function describeAction(action: RuleAction): string {
  if ("approve" in action) return `approve for ${formatSeconds(action.approve.ttlSeconds)}`;
  if ("reject" in action) return action.reject.reason ? `reject: “${action.reject.reason}”` : "reject";
  return `require ${action.requireApprovals.count} approvals`;
}

function formatSeconds(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** The order after moving the rule at `index` by `delta` (−1 up, +1 down); the same order where it cannot move. */
export function movedOrder(ids: readonly string[], index: number, delta: -1 | 1): string[] {
  const target = index + delta;
  const order = [...ids];
  if (index < 0 || index >= ids.length || target < 0 || target >= ids.length) return order;
  [order[index], order[target]] = [order[target]!, order[index]!];
  return order;
}

const FIELD_OF: [RegExp, keyof RuleDraft][] = [
  [/^name$/, "name"],
  [/^(rule\.)?expression$/, "expression"],
  [/^mode$/, "mode"],
  [/^maxPerHour$/, "maxPerHour"],
  [/^(rule\.)?action\.approve\.ttlSeconds$/, "ttlSeconds"],
  [/^(rule\.)?action\.reject\.reason$/, "reason"],
  [/^(rule\.)?action\.requireApprovals\.count$/, "count"],
  [/^(rule\.)?action(\..*)?$/, "kind"],
];

/** The editor's field a server error names (create's, update's or test's field path), or null for the form as a whole. */
export function draftFieldOf(field: string): keyof RuleDraft | null {
  return FIELD_OF.find(([pattern]) => pattern.test(field))?.[1] ?? null;
}
