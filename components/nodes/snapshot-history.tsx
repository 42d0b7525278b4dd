import { LocalTime } from "@/components/join-requests/countdown";
import dataTable from "@/components/ui/data-table.module.css";
import type { SnapshotJson } from "@/lib/inventory/snapshot-json";
import { diffSections, type FieldChange } from "@/lib/inventory/snapshot-diff";
import nodeStyles from "./node.module.css";

const show = (value: unknown) => (value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value));

/**
 * The history newest first, and a field-level diff of two snapshots chosen in
 * a plain GET form (?from=inv_…&to=inv_…, latest vs previous by default), so
 * the comparison is a URL too.
 */
export function SnapshotHistory({ snapshots, from, to }: { snapshots: SnapshotJson[]; from?: string; to?: string }) {
  const newer = snapshots.find((snapshot) => snapshot.id === to) ?? snapshots[0];
  const older = snapshots.find((snapshot) => snapshot.id === from) ?? snapshots[snapshots.indexOf(newer!) + 1];
  const changes: FieldChange[] = newer && older ? diffSections(older.sections, newer.sections) : [];
  const label = (snapshot: SnapshotJson) =>
    `${snapshot.takenAt.replace("T", " ").slice(0, 16)} UTC · ${snapshot.changedSections.join(", ")}`;
  return (
    <>
      <ol className={nodeStyles.history} data-testid="snapshot-history">
        {snapshots.map((snapshot) => (
          <li key={snapshot.id} data-testid="snapshot">
            <LocalTime iso={snapshot.takenAt} />
            <span className="muted">changed</span>
            {snapshot.changedSections.map((name) => (
              <span key={name} className="badge badge-reason">
                {name}
              </span>
            ))}
            <span className="muted">· last reported</span> <LocalTime iso={snapshot.lastReportedAt} />
          </li>
        ))}
      </ol>
      {snapshots.length > 1 && newer && older ? (
        <>
          <form method="get" className={nodeStyles.compare} aria-label="Compare two snapshots">
            <label>
              Older
              <select name="from" defaultValue={older.id} className="input">
                {snapshots.map((snapshot) => (
                  <option key={snapshot.id} value={snapshot.id}>
                    {label(snapshot)}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Newer
              <select name="to" defaultValue={newer.id} className="input">
                {snapshots.map((snapshot) => (
                  <option key={snapshot.id} value={snapshot.id}>
                    {label(snapshot)}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="button">
              Compare
            </button>
          </form>
          <div className={dataTable.tableWrap}>
            <table className={dataTable.table} data-testid="snapshot-diff">
              <caption className="visually-hidden">Changes from the older to the newer snapshot</caption>
              <thead>
                <tr>
                  <th scope="col">Change</th>
                  <th scope="col">Field</th>
                  <th scope="col">Before</th>
                  <th scope="col">After</th>
                </tr>
              </thead>
              <tbody>
                {changes.length === 0 ? (
                  <tr>
                    <td colSpan={4} className="muted">
                      No differences.
                    </td>
                  </tr>
                ) : (
                  changes.map((change) => (
                    <tr key={`${change.kind}-${change.path}`} data-testid="diff-row" data-kind={change.kind}>
                      <td className={nodeStyles[change.kind]}>{change.kind}</td>
                      <td className="mono">{change.path}</td>
                      <td className="mono">{show(change.before)}</td>
                      <td className="mono">{show(change.after)}</td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </>
  );
}
