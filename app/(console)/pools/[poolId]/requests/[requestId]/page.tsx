import { notFound } from "next/navigation";
import { LocalTime, ExpiryCountdown } from "@/components/join-requests/countdown";
import { CopyButton } from "@/components/join-requests/copy-button";
import { ReasonBadges, SiteRequestBadge, StateBadge } from "@/components/join-requests/request-badges";
import { ApprovalsLine } from "@/components/join-requests/approvals-line";
import { RequestActions } from "@/components/join-requests/request-actions";
import { queuePoolOf } from "@/components/join-requests/queue-pool";
import { RequestTimeline } from "@/components/join-requests/request-timeline";
import { RequestRules } from "@/components/approval-rules/request-rules";
import { MachineIdentityFields } from "@/components/ui/machine-identity-fields";
import { EkCertificateFacts } from "@/components/ui/ek-certificate-facts";
import { BootMeasurementFacts } from "@/components/ui/boot-measurement-facts";
import { readPoolBootPolicy } from "@/server/attestation/tpm/pool-boot-policy";
import styles from "@/components/join-requests/request-detail.module.css";
import { PoolHeading } from "@/components/pools/pool-heading";
import { nodeHref } from "@/components/nodes/node-url";
import { NavLink } from "@/components/ui/nav-link";
import { safeDecode } from "@/lib/url/safe-decode";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listEvents } from "@/server/events/list-events";
import { findJoinRequest } from "@/server/join-requests/find-join-request";
import { findPoolForPrincipal } from "@/server/pools/find-pool-for-principal";
import { describeActors } from "@/server/users/describe-actors";
import { requestPagePath } from "@/lib/url/console-paths";

type Props = { params: Promise<{ poolId: string; requestId: string }> };

export const metadata = { title: "Join request — Better Compute" };

// One request as its pool sees it: every field, and its timeline from the events.
export default async function JoinRequestPage({ params }: Props) {
  const { poolId: rawPoolId, requestId: rawRequestId } = await params;
  const poolId = safeDecode(rawPoolId);
  const requestId = safeDecode(rawRequestId);
  const { principal } = await requireUser(requestPagePath(poolId, requestId));
  const db = await getDb();
  const now = new Date();
  const pool = await findPoolForPrincipal({ db, principal, poolId });
  if (!pool) notFound();
  const request = await findJoinRequest({ db, pool, requestId, now });
  if (!request) notFound();
  const { events } = await listEvents({ db, pool, requestId, limit: 200 });
  const actors = await describeActors({
    db,
    tenantId: pool.tenantId,
    actors: [
      request.decidedBy,
      ...request.approvals.map((approval) => approval.by),
      ...events.map((event) => (event.data as { actor?: string } | null)?.actor),
    ].filter((actor): actor is string => typeof actor === "string"),
  });
  const { machine } = request;
  // SPEC I2: "Trust this boot state" sends the pool's whole list with the new
  // state (pools/update), so those who may change it get the list as read now
  const bootStates =
    pool.canManagePool && request.reasons.includes("boot-state-unknown") ? (await readPoolBootPolicy(db, pool.id)).states : undefined;
  // the node this request's consumption made (SPEC D1), if it is in this pool
  const node =
    request.state === "consumed"
      ? await db.node.findFirst({ where: { joinRequestId: request.id, poolId: pool.id }, select: { id: true, hostname: true } })
      : null;

  return (
    <>
      <PoolHeading pool={pool} />
      <div className={styles.layout}>
        <section className={`card ${styles.panel}`} aria-labelledby="request-title" data-testid="request-detail">
          <h2 id="request-title" className={styles.title}>
            {machine.hostname} <StateBadge state={request.state} /> <SiteRequestBadge request={request} />
          </h2>
          <dl className={styles.fields}>
            <dt>Request</dt>
            <dd className="mono">{request.id}</dd>
            <dt>Where</dt>
            <dd className="mono">
              {request.tenantId}/{request.siteId}/{request.poolId ?? "(unclaimed)"}
            </dd>
            <dt>Deferred because</dt>
            <dd>
              <ReasonBadges reasons={request.reasons} />
            </dd>
            <dt>System UUID</dt>
            <dd className="mono">{machine.systemUuid}</dd>
            <MachineIdentityFields machine={machine} />
            <EkCertificateFacts certificate={request.ekCertificate} />
            <BootMeasurementFacts measurement={request.bootMeasurement} />
            <dt>CSR SHA-256</dt>
            <dd className="mono">
              {request.csrSha256} <CopyButton value={request.csrSha256} label="Copy the CSR fingerprint" />
            </dd>
            <dt>Asked</dt>
            <dd>
              <LocalTime iso={request.createdAt} />
            </dd>
            <dt>Expires</dt>
            <dd>
              <LocalTime iso={request.expiresAt} />
              {request.state === "pending" || request.state === "approved" ? (
                <>
                  {" "}
                  (in <ExpiryCountdown request={request} />)
                </>
              ) : null}
            </dd>
            <dt>Decided</dt>
            <dd>
              {request.decidedAt ? (
                <>
                  <LocalTime iso={request.decidedAt} /> by{" "}
                  <span className="mono">{actors[request.decidedBy ?? ""] ?? request.decidedBy}</span>
                </>
              ) : (
                <span className="muted">not yet</span>
              )}
            </dd>
            {request.approvalsRequired > 1 ? (
              <>
                <dt>Approvals</dt>
                <dd>
                  <ApprovalsLine request={request} names={actors} />
                </dd>
              </>
            ) : null}
            <RequestRules poolId={pool.id} decidedBy={request.decidedBy} events={events} actors={actors} />
            <dt>Reason</dt>
            <dd>{request.reason ?? <span className="muted">—</span>}</dd>
            <dt>Consumed</dt>
            <dd>
              <LocalTime iso={request.consumedAt} />
            </dd>
            {node ? (
              <>
                <dt>Node</dt>
                <dd className="mono">
                  <NavLink href={nodeHref(pool.id, node.id)}>{node.id}</NavLink>
                </dd>
              </>
            ) : null}
          </dl>
          <RequestActions
            pool={{ ...queuePoolOf(pool, actors), canManageAttestation: pool.canManageAttestation }}
            request={request}
            bootStates={bootStates}
          />
        </section>
        <section className={`card ${styles.panel}`} aria-labelledby="timeline-title">
          <h2 id="timeline-title">Timeline</h2>
          <RequestTimeline events={events} actors={actors} />
        </section>
      </div>
    </>
  );
}
