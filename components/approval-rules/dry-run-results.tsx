"use client";
import { NavLink } from "@/components/ui/nav-link";
import dataTable from "@/components/ui/data-table.module.css";
import tableCards from "@/components/ui/table-cards.module.css";
import type { TestRuleAnswer } from "@/lib/approval-rules/rule-schemas";
import { requestHref } from "./rule-paths";
import styles from "./rules.module.css";

/** The table shows this many rows (disagreements first); the summary counts them all (up to 10,000). */
const ROWS_SHOWN = 100;

type Result = TestRuleAnswer["results"][number];
const WOULD: Record<Result["would"], string> = {
  approve: "approve",
  reject: "reject",
  requireApprovals: "require more approvals",
  nothing: "nothing (no match)",
  error: "error",
};
const rank = (result: Result) => (result.agrees === false ? 0 : result.would === "error" ? 1 : result.would !== "nothing" ? 2 : 3);

/** What the draft would do to the pool's requests (approvalRules/test), against what people decided. */
export function DryRunResults({ poolId, answer }: { poolId: string; answer: TestRuleAnswer }) {
  const { summary } = answer;
  const shown = [...answer.results].sort((a, b) => rank(a) - rank(b)).slice(0, ROWS_SHOWN);
  return (
    <section className={styles.dryRun} aria-labelledby="dry-run-title" data-testid="dry-run">
      <h3 id="dry-run-title">Dry run: {summary.requests} requests</h3>
      <p className="muted">The pool&apos;s pending requests and those decided in the last 30 days. Nothing was changed.</p>
      <div className={styles.summary} data-testid="dry-run-summary">
        <span className="badge badge-approved">{summary.wouldApprove} would approve</span>
        <span className="badge badge-rejected">{summary.wouldReject} would reject</span>
        <span className="badge">{summary.wouldRequireApprovals} would require more approvals</span>
        <span className="badge">{summary.nothing} no match</span>
        <span className="badge">{summary.errors} errors</span>
        <span className="badge">{summary.agree} agree with the person</span>
        <span className={`badge ${summary.disagree > 0 ? "badge-rejected" : ""}`}>{summary.disagree} disagree</span>
      </div>
      {answer.results.length === 0 ? null : (
        <div className={dataTable.tableWrap}>
          <table className={`${dataTable.table} ${tableCards.cards}`} data-testid="dry-run-table">
            <caption className="visually-hidden">What the rule would do to each request</caption>
            <thead>
              <tr>
                <th scope="col">Request</th>
                <th scope="col">State</th>
                <th scope="col">Rule would</th>
                <th scope="col">Decided by</th>
                <th scope="col">Agrees</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((result) => (
                <tr key={result.requestId} data-testid="dry-run-row" data-request-id={result.requestId}>
                  <td data-label="Request" className={dataTable.ids}>
                    <NavLink href={requestHref(poolId, result.requestId)}>{result.requestId}</NavLink>
                  </td>
                  <td data-label="State">{result.state}</td>
                  <td data-label="Rule would">
                    {WOULD[result.would]}
                    {result.error ? <div className="field-error">{result.error}</div> : null}
                    {result.blocked ? <div className="muted">but no rule may: {result.blocked}</div> : null}
                  </td>
                  <td data-label="Decided by" className={dataTable.ids}>
                    {result.decidedBy ?? "—"}
                  </td>
                  <td data-label="Agrees" className={result.agrees === false ? styles.disagrees : undefined}>
                    {result.agrees === null ? "—" : result.agrees ? "agrees" : "disagrees"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {answer.results.length > ROWS_SHOWN ? (
        <p className="muted">
          Showing {ROWS_SHOWN} of {answer.results.length}, disagreements and errors first.
        </p>
      ) : null}
    </section>
  );
}
