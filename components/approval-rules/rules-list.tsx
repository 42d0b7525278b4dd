"use client";
import { lazy, Suspense, useState } from "react";
import { LocalTime } from "@/components/join-requests/countdown";
import { NavLink } from "@/components/ui/nav-link";
import { EmptyState } from "@/components/ui/empty-state";
import dataTable from "@/components/ui/data-table.module.css";
import tableCards from "@/components/ui/table-cards.module.css";
import listPage from "@/components/ui/list-page.module.css";
import { useRulesQuery } from "@/data/approval-rules/rules-query";
import { describeAction } from "@/lib/approval-rules/rule-draft";
import type { ListedRuleJson, RuleAction } from "@/lib/approval-rules/rule-schemas";
import { newRuleHref, ruleHref } from "./rule-paths";
import { RuleMatchCountsList } from "./rule-match-counts";
import { RuleRowActions } from "./rule-row-actions";
import type { RulesScope } from "./rules-scope";
import styles from "./rules.module.css";

const DeleteRuleDialog = lazy(() => import("./delete-rule-dialog").then((m) => ({ default: m.DeleteRuleDialog })));

/**
 * SPEC H2's Rules page: the pool's rules in the order they run, each with what
 * it did in the last 24 hours (refreshed while the page is open); the
 * controls only for those who may change them. On a phone each row is a card.
 */
export function RulesList({
  scope,
  initialRules,
  actors,
}: {
  scope: RulesScope;
  initialRules: ListedRuleJson[];
  actors: Record<string, string>;
}) {
  const { data: rules } = useRulesQuery(scope.tenantId, scope.poolId, initialRules);
  const [deleting, setDeleting] = useState<ListedRuleJson | null>(null);
  return (
    <>
      <div className={listPage.toolbar}>
        <p className="muted" style={{ margin: 0 }}>
          Rules run in this order when a request is deferred; the first <strong>enforce</strong> rule that matches decides. A{" "}
          <strong>shadow</strong> rule only records what it would have done.
        </p>
        {scope.canManage ? (
          <NavLink className="button button-primary" href={newRuleHref(scope.poolId)}>
            New rule
          </NavLink>
        ) : null}
      </div>
      {rules.length === 0 ? (
        <EmptyState testId="rules-empty">
          <p>
            <strong>No rules in this pool.</strong>
          </p>
          <p className="muted">Every deferred request waits for a person. A rule can approve, reject or ask for more approvals.</p>
        </EmptyState>
      ) : (
        <div className={dataTable.tableWrap}>
          <table className={`${dataTable.table} ${tableCards.cards}`} data-testid="rules-table">
            <caption className="visually-hidden">Approval rules, in the order they run</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Rule</th>
                <th scope="col">Mode</th>
                <th scope="col">Action</th>
                <th scope="col">Version</th>
                <th scope="col">Last 24 h</th>
                {scope.canManage ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {rules.map((rule, index) => (
                <tr key={rule.id} data-testid="rule-row" data-rule-id={rule.id}>
                  <td data-label="Order">{index + 1}</td>
                  <td data-label="Rule">
                    <NavLink href={ruleHref(scope.poolId, rule.id)}>{rule.name}</NavLink>
                    <div className={styles.expression}>{rule.expression}</div>
                  </td>
                  <td data-label="Mode">
                    <span className={`badge ${rule.mode === "enforce" ? "badge-approved" : "badge-pending"}`} data-testid="rule-mode">
                      {rule.mode}
                    </span>
                  </td>
                  <td data-label="Action">
                    {describeAction(rule.action as RuleAction)}
                    {rule.maxPerHour !== null ? <div className="muted">at most {rule.maxPerHour} an hour</div> : null}
                  </td>
                  <td data-label="Version">
                    <span data-testid="rule-version">v{rule.version}</span>
                    <div className="muted">
                      {actors[rule.updatedBy] ?? rule.updatedBy}, <LocalTime iso={rule.updatedAt} />
                    </div>
                  </td>
                  <td data-label="Last 24 h">
                    <RuleMatchCountsList counts={rule.matches24h} ruleName={rule.name} />
                  </td>
                  {scope.canManage ? (
                    <td data-label="Actions">
                      <RuleRowActions scope={scope} rules={rules} index={index} onDelete={() => setDeleting(rule)} />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Suspense fallback={null}>
        {deleting ? <DeleteRuleDialog scope={scope} rule={deleting} onClose={() => setDeleting(null)} /> : null}
      </Suspense>
    </>
  );
}
