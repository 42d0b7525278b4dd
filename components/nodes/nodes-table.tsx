import { LocalTime } from "@/components/join-requests/countdown";
import dataTable from "@/components/ui/data-table.module.css";
import machineCell from "@/components/ui/machine-cell.module.css";
import { NavLink } from "@/components/ui/nav-link";
import type { NodeJson } from "@/lib/nodes/node-json";
import type { MachineTwin } from "@/lib/nodes/machine-twin";
import { certificateExpiresSoon, hardwareSummary, isStale, osSummary } from "@/lib/nodes/node-facts";
import { nodeHref } from "./node-url";
import { AttestationBadge } from "./attestation-badge";
import tableCards from "@/components/ui/table-cards.module.css";

/** A pool's nodes, one row each: what it is, whether it is alive, and when its certificate runs out. */
export function NodesTable(props: {
  poolId: string;
  nodes: NodeJson[];
  sections: Map<string, Record<string, unknown>>;
  /** other active nodes with the same system UUID, by node id */
  twins: Map<string, MachineTwin[]>;
  now: Date;
}) {
  const { poolId, nodes, sections, twins, now } = props;
  return (
    <div className={dataTable.tableWrap}>
      <table className={`${dataTable.table} ${tableCards.cards}`} role="table" data-testid="nodes">
        <thead role="rowgroup">
          <tr role="row">
            <th role="columnheader" scope="col">
              Node
            </th>
            <th role="columnheader" scope="col">
              State
            </th>
            <th role="columnheader" scope="col">
              Attestation
            </th>
            <th role="columnheader" scope="col">
              Joined
            </th>
            <th role="columnheader" scope="col">
              Last seen
            </th>
            <th role="columnheader" scope="col">
              Hardware
            </th>
            <th role="columnheader" scope="col">
              OS
            </th>
            <th role="columnheader" scope="col">
              Certificate until
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {nodes.map((node) => {
            const inventory = node.inventory ? (sections.get(node.inventory.snapshotId) ?? null) : null;
            const stale = node.state === "active" && isStale(node.lastSeenAt, now);
            const expiring = node.state === "active" && certificateExpiresSoon(node.certificate.notAfter, now);
            return (
              <tr key={node.id} role="row" data-testid="node-row" data-node-id={node.id}>
                <td role="cell">
                  <div className={machineCell.machine}>
                    <span className={machineCell.hostname}>
                      <NavLink href={nodeHref(poolId, node.id)}>{node.hostname}</NavLink>
                    </span>
                    <span className={dataTable.ids}>{node.id}</span>
                    {twins.has(node.id) ? (
                      <span
                        className="badge badge-pending"
                        data-testid="machine-twin"
                        title={`also the system UUID of ${twins
                          .get(node.id)!
                          .map((twin) => twin.hostname)
                          .join(", ")}`}
                      >
                        same machine as {twins.get(node.id)!.length} other
                      </span>
                    ) : null}
                  </div>
                </td>
                <td role="cell" data-label="State">
                  <span className={`badge ${node.state === "active" ? "badge-approved" : "badge-rejected"}`}>{node.state}</span>
                </td>
                <td role="cell" data-label="Attestation" data-testid="attestation">
                  <AttestationBadge attestation={node.attestation} />
                  {node.attestation?.bootState ? <span className={dataTable.ids}>{node.attestation.bootState}</span> : null}
                </td>
                <td role="cell" data-label="Joined" className={dataTable.nowrap}>
                  <LocalTime iso={node.joinedAt} />
                </td>
                <td role="cell" data-label="Last seen" className={dataTable.nowrap} data-testid="last-seen">
                  {node.lastSeenAt ? <LocalTime iso={node.lastSeenAt} /> : <span className="muted">never</span>}
                  {stale ? (
                    <>
                      {" "}
                      <span className="badge badge-pending" title="no call for over 15 minutes">
                        stale
                      </span>
                    </>
                  ) : null}
                </td>
                <td role="cell" data-label="Hardware" data-testid="hardware">
                  {hardwareSummary(inventory) ?? <span className="muted">no inventory yet</span>}
                </td>
                <td role="cell" data-label="OS">
                  {osSummary(inventory) ?? <span className="muted">—</span>}
                </td>
                <td role="cell" data-label="Certificate until" className={dataTable.nowrap} data-testid="certificate">
                  <LocalTime iso={node.certificate.notAfter} />
                  {expiring ? (
                    <>
                      {" "}
                      <span className="badge badge-pending" title="expires within 7 days">
                        expires soon
                      </span>
                    </>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
