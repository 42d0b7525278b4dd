"use client";
import { lazy, Suspense, useRef, useState } from "react";
import { NavLink } from "@/components/ui/nav-link";
import { ActionsColumnHeader } from "@/components/ui/actions-column-header";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { Age, ExpiryCountdown } from "./countdown";
import { CopyButton } from "./copy-button";
import { ReasonBadges, shortHash, SiteRequestBadge, StateBadge } from "./request-badges";
import type { QueuePool } from "./queue-pool";
import { approveUnavailable } from "./approve-unavailable";
import { ApprovalsLine } from "./approvals-line";
import { myApprovalWaiting } from "./my-approval";
import tableCards from "@/components/ui/table-cards.module.css";
import dataTable from "@/components/ui/data-table.module.css";
import machineCell from "@/components/ui/machine-cell.module.css";
import styles from "./queue.module.css";
import { useQueueShortcuts } from "./queue-shortcuts";
import type { RowAction } from "./row-action";
import { requestPagePath } from "@/lib/url/console-paths";

const ShortcutsHelpDialog = lazy(() => import("./shortcuts-help-dialog").then((m) => ({ default: m.ShortcutsHelpDialog })));

/** The queue's table. Action controls only for a pool admin (SPEC B4). */
export function RequestsTable(props: {
  pool: QueuePool;
  requests: JoinRequestJson[];
  selected: ReadonlySet<string>;
  onToggle: (requestId: string) => void;
  onToggleAll: (select: boolean) => void;
  onAction: (action: RowAction) => void;
}) {
  const { pool, requests, selected } = props;
  const selectable = requests.filter((request) => request.state === "pending");
  const allSelected = selectable.length > 0 && selectable.every((request) => selected.has(request.id));
  const table = useRef<HTMLTableElement>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  useQueueShortcuts({
    table,
    requests,
    canApprove: (request) =>
      pool.canDecide && !pool.archived && approveUnavailable(pool, request) === null && myApprovalWaiting(pool, request) === null,
    canDecide: pool.canDecide,
    onAction: props.onAction,
    onToggle: props.onToggle,
    onHelp: () => setHelpOpen(true),
  });
  return (
    <>
      <p className={styles.shortcutsHint}>
        <button type="button" className="button button-small button-ghost" aria-keyshortcuts="?" onClick={() => setHelpOpen(true)}>
          Keyboard shortcuts <kbd>?</kbd>
        </button>
      </p>
      <div className={dataTable.tableWrap}>
        <table ref={table} className={`${dataTable.table} ${tableCards.cards} ${styles.requests}`} data-testid="requests-table">
          <thead>
            <tr>
              {pool.canDecide ? (
                <th className={styles.select} scope="col">
                  {/* its words are seen on a phone only, where the rest of this row is hidden */}
                  <label className={`${styles.selectTarget} ${styles.selectAll}`}>
                    <input
                      type="checkbox"
                      checked={allSelected}
                      disabled={selectable.length === 0}
                      onChange={(event) => props.onToggleAll(event.target.checked)}
                    />
                    <span className={styles.selectAllWords}>Select every pending request on this page</span>
                  </label>
                </th>
              ) : null}
              <th scope="col">Machine</th>
              <th scope="col">Reasons</th>
              <th scope="col">TPM EK</th>
              <th scope="col">CSR</th>
              <th scope="col">Age</th>
              <th scope="col">Expires in</th>
              {pool.canDecide ? <ActionsColumnHeader /> : null}
            </tr>
          </thead>
          <tbody>
            {requests.map((request) => (
              <tr
                key={request.id}
                data-testid="request-row"
                data-request-id={request.id}
                data-selected={selected.has(request.id)}
                tabIndex={-1}
                aria-label={`${request.machine.hostname}, ${request.state}`}
              >
                {pool.canDecide ? (
                  <td className={styles.select}>
                    {request.state === "pending" ? (
                      <label className={styles.selectTarget}>
                        <input
                          type="checkbox"
                          aria-label={`Select ${request.machine.hostname}`}
                          checked={selected.has(request.id)}
                          onChange={() => props.onToggle(request.id)}
                        />
                      </label>
                    ) : null}
                  </td>
                ) : null}
                <td>
                  <div className={machineCell.machine}>
                    <span className={machineCell.hostname}>
                      <NavLink href={requestPagePath(pool.id, request.id)}>{request.machine.hostname}</NavLink>
                      <StateBadge state={request.state} />
                      <SiteRequestBadge request={request} />
                    </span>
                    <ApprovalsLine request={request} names={pool.approverNames} />
                    <span className={dataTable.ids}>
                      UUID {request.machine.systemUuid}
                      <br />
                      SN {request.machine.serialNumber || "—"}
                      <br />
                      MAC {request.machine.macAddresses.join(", ") || "—"}
                    </span>
                  </div>
                </td>
                <td data-label="Reasons">
                  <ReasonBadges reasons={request.reasons} />
                </td>
                <td data-label="TPM EK">
                  {request.machine.tpmEkSha256 ? (
                    <span className={styles.hash} title={request.machine.tpmEkSha256}>
                      {shortHash(request.machine.tpmEkSha256)}
                      {request.machine.tpmEkProven ? null : <span className="badge badge-reason">not proven</span>}
                    </span>
                  ) : (
                    <span className="muted">no TPM</span>
                  )}
                </td>
                <td data-label="CSR">
                  <span className={styles.hash} title={request.csrSha256}>
                    {shortHash(request.csrSha256)}
                    <CopyButton value={request.csrSha256} label={`Copy the CSR fingerprint of ${request.machine.hostname}`} />
                  </span>
                </td>
                <td className={dataTable.nowrap} data-label="Age">
                  <Age iso={request.createdAt} />
                </td>
                <td className={dataTable.nowrap} data-label="Expires in">
                  <ExpiryCountdown request={request} />
                </td>
                {pool.canDecide ? (
                  <td>
                    <RowActions pool={pool} request={request} onAction={props.onAction} />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {helpOpen ? (
        <Suspense fallback={null}>
          <ShortcutsHelpDialog onClose={() => setHelpOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}

function RowActions({ pool, request, onAction }: { pool: QueuePool; request: JoinRequestJson; onAction: (action: RowAction) => void }) {
  const host = request.machine.hostname;
  if (request.state === "pending") {
    const blocked = pool.archived ? null : approveUnavailable(pool, request);
    const mine = myApprovalWaiting(pool, request);
    return (
      <div className={styles.actions}>
        {blocked ? (
          <span className={styles.unavailable} data-testid="approve-unavailable">
            Approve is unavailable: {blocked}.
          </span>
        ) : null}
        {mine && !blocked ? (
          <span className={styles.unavailable} data-testid="approved-by-me">
            {mine}
          </span>
        ) : null}
        {pool.archived || blocked || mine ? null : (
          <button
            type="button"
            className="button button-small button-primary"
            aria-label={`Approve ${host}`}
            onClick={() => onAction({ kind: "approve", request })}
          >
            Approve
          </button>
        )}
        <button
          type="button"
          className="button button-small"
          aria-label={`Reject ${host}`}
          onClick={() => onAction({ kind: "reject", request })}
        >
          Reject
        </button>
      </div>
    );
  }
  if (request.state === "approved") {
    return (
      <div className={styles.actions}>
        <button
          type="button"
          className="button button-small"
          aria-label={`Withdraw the approval of ${host}`}
          onClick={() => onAction({ kind: "reject", request })}
        >
          Withdraw
        </button>
      </div>
    );
  }
  return null;
}
