// A rule's principal, `rule:<id>@<version>` (SPEC H2), read back. No import
// of the schemas: the queue's filter uses this, and the schemas pull zod into
// the queue's first load (queue-url-state.ts says why that matters).

const RULE_PRINCIPAL = /^rule:(rule_[0-9a-hjkmnp-tv-z]{26})@([1-9]\d{0,8})$/;

/** The rule and version that decided, or null for any other principal. */
export function parseRulePrincipal(actor: string | null | undefined): { ruleId: string; version: number } | null {
  const match = RULE_PRINCIPAL.exec(actor ?? "");
  return match ? { ruleId: match[1]!, version: Number(match[2]) } : null;
}

export const isRulePrincipal = (actor: string | null | undefined) => parseRulePrincipal(actor) !== null;
