"use client";

import { useState } from "react";
import styles from "./pool-activity-chart.module.css";

/** One row of the table: an hour's label (UTC, "HH:MM") and its numbers. */
export interface ActivityTableRow {
  hour: string;
  pending: number;
  approved: number;
  rejected: number;
}

/**
 * The chart's numbers as a table, behind "Show as table". Its rows are made
 * when it is opened, not sent as markup with the page: 24 rows are ~125
 * elements a pool, which were most of the overview's HTML and DOM for a
 * tenant of many pools (issue 33: 12,600 elements with 55 pools) though
 * almost nobody opens them.
 */
export function PoolActivityTable({ poolName, rows }: { poolName: string; rows: ActivityTableRow[] }) {
  const [open, setOpen] = useState(false);
  return (
    <details className={styles.details} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        Show as table<span className="visually-hidden"> ({poolName})</span>
      </summary>
      {open && (
        <div className={styles.tableScroll}>
          <table className={styles.table}>
            <caption className="visually-hidden">
              {poolName}: join requests per hour, last 24 hours (UTC); pending at each hour&apos;s end
            </caption>
            <thead>
              <tr>
                <th scope="col">UTC</th>
                <th scope="col">Pending</th>
                <th scope="col">Approved</th>
                <th scope="col">Rejected</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.hour}>
                  <th scope="row">{row.hour}</th>
                  <td>{row.pending}</td>
                  <td>{row.approved}</td>
                  <td>{row.rejected}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}
