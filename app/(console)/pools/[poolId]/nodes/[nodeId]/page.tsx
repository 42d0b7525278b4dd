import { notFound } from "next/navigation";
import { LocalTime } from "@/components/join-requests/countdown";
import styles from "@/components/join-requests/request-detail.module.css";
import { InventorySections } from "@/components/nodes/inventory-sections";
import { LiveRefresh } from "@/components/nodes/live-refresh";
import { NodeAttestationPanel } from "@/components/nodes/node-attestation-panel";
import { nodeHref, nodeListHref } from "@/components/nodes/node-url";
import { RevokeNodeButton } from "@/components/nodes/revoke-node-button";
import nodeStyles from "@/components/nodes/node.module.css";
import { SnapshotHistory } from "@/components/nodes/snapshot-history";
import { PoolHeading } from "@/components/pools/pool-heading";
import { PoolNav } from "@/components/pools/pool-nav";
import { NavLink } from "@/components/ui/nav-link";
import { certificateExpiresSoon, isStale } from "@/lib/nodes/node-facts";
import { toNodeJson } from "@/lib/nodes/node-json";
import { safeDecode } from "@/lib/url/safe-decode";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listSnapshots } from "@/server/inventory/read-snapshots";
import { findMachineTwins } from "@/server/nodes/find-machine-twins";
import { MachineIdentityFields } from "@/components/ui/machine-identity-fields";
import { NODE_JSON_SELECT } from "@/server/nodes/node-rows";
import { attestationReading } from "@/server/nodes/attestation-reading";
import { findPoolForPrincipal } from "@/server/pools/find-pool-for-principal";
import { describeActors } from "@/server/users/describe-actors";
import { requestPagePath } from "@/lib/url/console-paths";

type Props = {
  params: Promise<{ poolId: string; nodeId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const HISTORY = 50;
const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export async function generateMetadata({ params }: Props) {
  return { title: `${safeDecode((await params).nodeId)} — node` };
}

// One node as its pool sees it (SPEC D1, D3): identity and certificate, the
// request it consumed, its latest inventory section by section, its history
// with a diff of two snapshots; pool admins may revoke it.
export default async function NodePage({ params, searchParams }: Props) {
  const { poolId: rawPoolId, nodeId: rawNodeId } = await params;
  const poolId = safeDecode(rawPoolId);
  const nodeId = safeDecode(rawNodeId);
  const query = await searchParams;
  const { principal } = await requireUser(nodeHref(poolId, nodeId));
  const db = await getDb();
  const pool = await findPoolForPrincipal({ db, principal, poolId });
  if (!pool) notFound();
  const row = await db.node.findFirst({ where: { id: nodeId, poolId: pool.id }, select: NODE_JSON_SELECT });
  if (!row) notFound();
  const now = new Date();
  const node = toNodeJson(row, await attestationReading(db, pool.id, now));
  const [{ snapshots }, twinsByNode] = await Promise.all([
    listSnapshots({ db, nodeId: node.id, limit: HISTORY }),
    findMachineTwins(db, pool, [node]),
  ]);
  const twins = twinsByNode.get(node.id) ?? [];
  const actors = await describeActors({ db, tenantId: pool.tenantId, actors: node.revokedBy ? [node.revokedBy] : [] });
  const [latest] = snapshots;
  const { machine, certificate } = node;

  return (
    <>
      <PoolHeading pool={pool}>
        <PoolNav poolId={pool.id} current="nodes" />
      </PoolHeading>
      <p>
        <NavLink href={nodeListHref(pool.id)}>← All nodes</NavLink> <LiveRefresh />
      </p>
      <div className={styles.layout}>
        <section className={`card ${styles.panel}`} aria-labelledby="node-title" data-testid="node-detail">
          <h2 id="node-title" className={styles.title}>
            {node.hostname} <span className={`badge ${node.state === "active" ? "badge-approved" : "badge-rejected"}`}>{node.state}</span>
            {node.state === "active" && isStale(node.lastSeenAt, now) ? (
              <>
                {" "}
                <span className="badge badge-pending">stale</span>
              </>
            ) : null}
          </h2>
          <dl className={styles.fields}>
            <dt>Node</dt>
            <dd className="mono">{node.id}</dd>
            <dt>Joined</dt>
            <dd>
              <LocalTime iso={node.joinedAt} />
            </dd>
            <dt>Join request</dt>
            <dd className="mono">
              {node.joinRequestId ? (
                <NavLink href={requestPagePath(pool.id, node.joinRequestId)}>{node.joinRequestId}</NavLink>
              ) : (
                <span className="muted">none: admitted at once</span>
              )}
            </dd>
            <dt>Last seen</dt>
            <dd>{node.lastSeenAt ? <LocalTime iso={node.lastSeenAt} /> : <span className="muted">never</span>}</dd>
            <dt>System UUID</dt>
            <dd>
              <span className="mono">{machine.systemUuid}</span>
              {twins.length > 0 ? (
                <p className={nodeStyles.twins} data-testid="machine-twins">
                  Also the system UUID of active {twins.length === 1 ? "node" : "nodes"}{" "}
                  {twins.map((twin, index) => (
                    <span key={twin.id}>
                      {index > 0 ? ", " : ""}
                      <NavLink href={nodeHref(pool.id, twin.id)}>{twin.hostname}</NavLink>
                    </span>
                  ))}
                  : the same machine admitted again? Revoke the one no longer in use.
                </p>
              ) : null}
            </dd>
            <MachineIdentityFields machine={machine} />
            <dt>Certificate</dt>
            <dd className="mono">{certificate.serialNumber}</dd>
            <dt>Valid</dt>
            <dd>
              <LocalTime iso={certificate.notBefore} /> – <LocalTime iso={certificate.notAfter} />
              {node.state === "active" && certificateExpiresSoon(certificate.notAfter, now) ? (
                <>
                  {" "}
                  <span className="badge badge-pending">expires soon</span>
                </>
              ) : null}
            </dd>
            <dt>Certificate SHA-256</dt>
            <dd className="mono">{certificate.sha256 ?? "—"}</dd>
            {node.state === "revoked" ? (
              <>
                <dt>Revoked</dt>
                <dd>
                  <LocalTime iso={node.revokedAt} /> by <span className="mono">{actors[node.revokedBy ?? ""] ?? node.revokedBy}</span>
                </dd>
                <dt>Reason</dt>
                <dd>{node.revokeReason ?? <span className="muted">—</span>}</dd>
              </>
            ) : null}
          </dl>
          {node.state === "active" && pool.canDecide ? <RevokeNodeButton node={node} /> : null}
        </section>
        <section className={`card ${styles.panel}`} aria-labelledby="history-title">
          <h2 id="history-title">History</h2>
          {snapshots.length === 0 ? (
            <p className="muted">No inventory reported yet.</p>
          ) : (
            <SnapshotHistory snapshots={snapshots} from={one(query.from)} to={one(query.to)} />
          )}
        </section>
      </div>
      <NodeAttestationPanel attestation={node.attestation} />
      <section className={`card ${styles.panel}`} aria-labelledby="inventory-title" data-testid="inventory">
        <h2 id="inventory-title">Inventory</h2>
        {latest ? (
          <>
            <p className="muted">
              Latest snapshot <span className="mono">{latest.id}</span>, first reported <LocalTime iso={latest.takenAt} />, last reported{" "}
              <LocalTime iso={latest.lastReportedAt} />.
            </p>
            <InventorySections sections={latest.sections} />
          </>
        ) : (
          <p className="muted">The node has not reported its inventory yet.</p>
        )}
      </section>
    </>
  );
}
