import type { RuleMatchCounts } from "@/lib/approval-rules/rule-schemas";
import styles from "./rules.module.css";

const LABELS: [keyof RuleMatchCounts, string][] = [
  ["enforced", "enforced"],
  ["shadow", "shadow"],
  ["throttled", "throttled"],
  ["blocked", "blocked"],
  ["errors", "errors"],
];

/** A rule's last 24 hours (approvalRules/list's matches24h), each count named. */
export function RuleMatchCountsList({ counts, ruleName }: { counts: RuleMatchCounts; ruleName: string }) {
  return (
    <dl className={styles.counts} aria-label={`${ruleName}: matches in the last 24 hours`} data-testid="rule-counts">
      {LABELS.map(([key, label]) => (
        <div key={key} data-count={key}>
          <dt>{label}</dt>
          <dd>{counts[key]}</dd>
        </div>
      ))}
    </dl>
  );
}
