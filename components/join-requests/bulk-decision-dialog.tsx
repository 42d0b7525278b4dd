"use client";
import { toast } from "@/components/ui/toast";
import { useDecideJoinRequestsMutation, type BulkDecision } from "@/data/join-requests/decide-join-requests-mutation";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { formatDuration } from "@/lib/time/format-duration";
import { DialogCancel, DialogFooter, ModalDialog } from "@/components/ui/dialog";
import { ReasonField } from "./reason-field";
import { TtlPicker } from "./ttl-picker";
import { useDecisionForm } from "./use-decision-form";
import type { QueuePool } from "./queue-pool";
import { approveUnavailable } from "./approve-unavailable";
import { myApprovalWaiting } from "./my-approval";
import { bulkApprovalCounts, bulkApprovalText } from "@/lib/join-requests/bulk-approval-summary";
import styles from "./decision-form.module.css";

/** Approves or rejects the selected requests with one TTL and reason, then shows each row's outcome. */
export function BulkDecisionDialog(props: {
  pool: QueuePool;
  decision: BulkDecision;
  requests: JoinRequestJson[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { pool, decision } = props;
  const approve = decision === "approve";
  // SPEC G2: a request this pool cannot approve is skipped, with its reason, not sent to fail;
  // SPEC H1: so is one the signed-in principal approved already (again would change nothing).
  const skipped = approve
    ? props.requests.flatMap((request) => {
        const why = approveUnavailable(pool, request) ?? myApprovalWaiting(pool, request);
        return why ? [{ request, why }] : [];
      })
    : [];
  const requests = props.requests.filter((request) => !skipped.some((skip) => skip.request.id === request.id));
  const form = useDecisionForm(decision, { tenantId: pool.tenantId, poolId: pool.id, requestId: requests[0]?.id ?? "" });
  const mutation = useDecideJoinRequestsMutation({
    onSuccess: (results) => {
      const failed = results.filter((result) => !result.ok).length;
      const done = results.length - failed;
      const text = approve ? bulkApprovalText(bulkApprovalCounts(results)) : `Rejected ${done} of ${results.length} requests`;
      if (failed === 0) toast.success(text);
      else toast.error(approve ? text : `${text}; ${failed} failed`, { description: "See each row's result in the dialog." });
      props.onDone();
    },
  });
  const pending = mutation.isPending;
  const results = mutation.data;
  const hostname = new Map(requests.map((request) => [request.id, request.machine.hostname]));
  const count = `${requests.length} ${requests.length === 1 ? "request" : "requests"}`;

  return (
    <ModalDialog
      open
      onOpenChange={(open) => (open ? undefined : props.onClose())}
      pending={pending}
      title={approve ? `Approve ${count}` : `Reject ${count}`}
      description={
        approve
          ? `Each approval admits one join into ${pool.id}, with the same time to live and reason.`
          : "Each request is rejected with the same reason; the machines' retries with these CSRs will fail."
      }
      testId="bulk-dialog"
    >
      {results ? (
        <>
          <p className={styles.summary} data-testid="bulk-summary">
            {approve
              ? `${bulkApprovalText(bulkApprovalCounts(results))}.`
              : `${results.filter((result) => result.ok).length} of ${results.length} succeeded.`}
          </p>
          <ul className={styles.results} data-testid="bulk-results">
            {results.map((result) => (
              <li key={result.requestId} data-testid="bulk-result" data-request-id={result.requestId}>
                <span className="mono">{hostname.get(result.requestId)}</span>
                {result.ok && result.state === "pending" && approve ? (
                  <span className="badge badge-pending">recorded · {result.missing} more needed</span>
                ) : result.ok ? (
                  <span className="badge badge-approved">ok</span>
                ) : (
                  <span className="badge badge-rejected" title={result.message}>
                    {result.code}
                  </span>
                )}
              </li>
            ))}
          </ul>
          <DialogFooter>
            <DialogCancel pending={false}>Close</DialogCancel>
          </DialogFooter>
        </>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (!form.submit() || (approve && form.ttlSeconds === null)) return;
            mutation.mutate({
              decision,
              tenantId: pool.tenantId,
              poolId: pool.id,
              requestIds: requests.map((request) => request.id),
              ttlSeconds: approve ? (form.ttlSeconds ?? undefined) : undefined,
              reason: form.reasonValue,
            });
          }}
        >
          {mutation.error ? (
            <p role="alert" className="alert">
              {mutation.error.message}
            </p>
          ) : null}
          <ul className={styles.results} aria-label="Selected requests">
            {requests.map((request) => (
              <li key={request.id} className="mono">
                {request.machine.hostname}
              </li>
            ))}
          </ul>
          {skipped.length > 0 ? (
            <div data-testid="bulk-skipped">
              <p>
                Skipped, {skipped.length === 1 ? "it cannot" : "they cannot"} be approved here (reject{" "}
                {skipped.length === 1 ? "it" : "them"} instead if the machine should not join):
              </p>
              <ul className={styles.results} aria-label="Skipped requests">
                {skipped.map(({ request, why }) => (
                  <li key={request.id}>
                    <span className="mono">{request.machine.hostname}</span>: {why}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {approve ? <TtlPicker value={form.ttl} onChange={form.setTtl} error={form.ttlError} disabled={pending} /> : null}
          <ReasonField
            label="Reason (optional)"
            value={form.reason}
            onChange={form.setReason}
            error={form.reasonError}
            disabled={pending}
          />
          {approve && form.ttlSeconds !== null ? (
            <p className={styles.expiry}>Each approval expires {formatDuration(form.ttlSeconds * 1000)} after it is made.</p>
          ) : null}
          <DialogFooter>
            <DialogCancel pending={pending} />
            <button
              type="submit"
              className={`button ${approve ? "button-primary" : "button-danger"}`}
              disabled={pending || requests.length === 0}
            >
              {pending ? (approve ? "Approving…" : "Rejecting…") : approve ? `Approve ${count}` : `Reject ${count}`}
            </button>
          </DialogFooter>
        </form>
      )}
    </ModalDialog>
  );
}
