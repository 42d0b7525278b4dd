import dataTable from "@/components/ui/data-table.module.css";

/** The queue before its first fetch answers: what the server renders, and the first paint. */
export function QueueSkeleton() {
  return (
    <div className={dataTable.tableWrap} aria-busy="true" aria-label="Loading join requests" data-testid="queue-loading">
      <table className={dataTable.table}>
        <tbody>
          {Array.from({ length: 5 }, (_, row) => (
            <tr key={row}>
              {Array.from({ length: 6 }, (_, cell) => (
                <td key={cell}>
                  <span className="skeleton" style={{ width: cell === 0 ? "14rem" : "5rem" }} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
