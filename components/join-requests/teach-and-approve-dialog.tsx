"use client";
import { useState } from "react";
import { toast } from "@/components/ui/toast";
import { DialogCancel, DialogFooter, ModalDialog } from "@/components/ui/dialog";
import { useTeachAndApproveMutation, type TeachStep } from "@/data/attestation/teach-and-approve-mutation";
import { addTpmAllowedKey, upsertDiscoveredMachines } from "@/lib/api-client/attestation";
import { updatePool } from "@/lib/api-client/pools";
import type { BootState } from "@/lib/pools/boot-states";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { approvalEffectText, approvalProgress, approvalRecordedText } from "@/lib/join-requests/approval-progress";
import { DecisionError } from "./decision-error";
import { ReasonField } from "./reason-field";
import { TtlPicker } from "./ttl-picker";
import { useDecisionForm } from "./use-decision-form";
import type { QueuePool } from "./queue-pool";
import styles from "./decision-form.module.css";

export type TeachKind = "machine" | "tpm" | "boot";

const TITLES: Record<TeachKind, string> = { machine: "Trust this machine", tpm: "Allow this TPM", boot: "Trust this boot state" };
const SUBMIT: Record<TeachKind, string> = { machine: "Trust and approve", tpm: "Allow and approve", boot: "Trust and approve" };

interface Choices {
  assign: boolean;
  note: string;
  /** SPEC I2: the new state's name, and the pool's states as the page read them (the whole list is sent) */
  bootName: string;
  bootStates: readonly BootState[];
}

/** The attestor's lesson for this request: the machine into the site's inventory, its EK onto the tenant's allow-list, or its boot into the pool's states. */
function teachStep(kind: TeachKind, pool: QueuePool, request: JoinRequestJson, choices: Choices): TeachStep {
  const { machine } = request;
  if (kind === "boot") {
    return async () => {
      const name = choices.bootName.trim();
      const bootStates = [...choices.bootStates, { name, pcrs: request.bootMeasurement!.pcrs }];
      await updatePool({ tenantId: pool.tenantId, poolId: pool.id, bootStates });
      return `Pool ${pool.id} knows the boot state "${name}".`;
    };
  }
  if (kind === "machine") {
    return async () => {
      const machines = [
        { systemUuid: machine.systemUuid, macAddresses: machine.macAddresses, assignedPoolId: choices.assign ? pool.id : null },
      ];
      const counts = await upsertDiscoveredMachines({ tenantId: pool.tenantId, siteId: request.siteId, machines });
      const how = counts.created ? "added" : counts.updated ? "updated" : "already as given";
      return `${request.siteId}'s discovery inventory knows ${machine.systemUuid} (${how}${choices.assign ? `, assigned to ${pool.id}` : ""}).`;
    };
  }
  return async () => {
    const key = await addTpmAllowedKey({ tenantId: pool.tenantId, ekSha256: machine.tpmEkSha256!, note: choices.note });
    return `Endorsement key ${key.ekSha256.slice(0, 16)}… is on ${pool.tenantId}'s TPM allow-list.`;
  };
}

/**
 * Teaches the attestor what made it defer this request, then approves it
 * (SPEC E3), showing both results. The approval admits this request's retry;
 * what was taught admits the machine's later fresh joins without a person.
 */
export function TeachAndApproveDialog(props: {
  kind: TeachKind;
  pool: QueuePool;
  request: JoinRequestJson;
  /** kind "boot": the pool's known boot states */
  bootStates?: readonly BootState[];
  onClose: () => void;
  onSettled?: () => void;
}) {
  const { kind, pool, request } = props;
  const form = useDecisionForm("approve", { tenantId: pool.tenantId, poolId: pool.id, requestId: request.id });
  const [assign, setAssign] = useState(true);
  const [note, setNote] = useState(`allowed with ${request.id}`);
  const [bootName, setBootName] = useState(`trusted-with-${request.machine.hostname.split(".")[0]}`);
  const mutation = useTeachAndApproveMutation({
    onSuccess: ({ approved }) => {
      toast.success(approved.state === "pending" ? approvalRecordedText(approved) : `Approved ${approved.machine.hostname}`);
      props.onSettled?.();
    },
  });
  const pending = mutation.isPending;
  const done = mutation.data;
  const failed = mutation.error;
  const taught = done?.taught ?? failed?.taught ?? null;
  // SPEC H1: offered only to a principal who has not approved yet (request-actions.tsx)
  const progress = approvalProgress(request, pool.me, pool.approvalsRequired);
  const effect = progress.required > 1 ? approvalEffectText(progress) : null;

  return (
    <ModalDialog
      open
      onOpenChange={(open) => (open ? undefined : props.onClose())}
      pending={pending}
      title={`${TITLES[kind]}: ${request.machine.hostname}`}
      description={
        kind === "machine"
          ? `Adds its system UUID and MACs to ${request.siteId}'s discovery inventory, so its next joins are admitted at once; then approves this request for ${pool.id}.`
          : kind === "tpm"
            ? `Puts its endorsement key on ${pool.tenantId}'s TPM allow-list, so its next joins pass the tpm attestor; then approves this request for ${pool.id}.`
            : `Adds the PCR values its TPM quoted to ${pool.id}'s known boot states under the name you give, so machines that boot the same are admitted; then approves this request.`
      }
      testId="teach-dialog"
    >
      {done || taught ? (
        <ul className={styles.results} data-testid="teach-results" aria-live="polite">
          {taught ? (
            <li>
              <span>✓ {taught}</span>
            </li>
          ) : null}
          {done ? (
            <li>
              <span>
                {done.approved.state === "pending"
                  ? `✓ ${approvalRecordedText(done.approved)}.`
                  : `✓ Approved for ${pool.id} until ${new Date(done.approved.expiresAt).toLocaleString()}.`}
              </span>
            </li>
          ) : null}
        </ul>
      ) : null}
      {done ? (
        <DialogFooter>
          <button type="button" className="button button-primary" onClick={props.onClose}>
            Close
          </button>
        </DialogFooter>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (!form.submit() || form.ttlSeconds === null) return;
            const approve = {
              tenantId: pool.tenantId,
              poolId: pool.id,
              requestId: request.id,
              ttlSeconds: form.ttlSeconds,
              reason: form.reasonValue,
            };
            const bootStates = props.bootStates ?? [];
            const choices = { assign, note, bootName, bootStates };
            mutation.mutate({ tenantId: pool.tenantId, teach: teachStep(kind, pool, request, choices), approve });
          }}
        >
          {failed ? (
            <p className="muted">{failed.step === "teach" ? "Nothing was changed." : "What was taught stays; the approval failed:"}</p>
          ) : null}
          <DecisionError error={failed} />
          {effect ? (
            <p className={styles.effect} data-testid="approval-effect">
              <strong>{effect}</strong>.
            </p>
          ) : null}
          {kind === "machine" ? (
            <label className="field">
              <span>
                <input
                  type="checkbox"
                  checked={assign}
                  onChange={(event) => setAssign(event.target.checked)}
                  disabled={pending || taught !== null}
                />{" "}
                Assign it to pool {pool.id}
              </span>
            </label>
          ) : kind === "boot" ? (
            <label className="field">
              Name of the boot state
              <input
                value={bootName}
                maxLength={64}
                required
                onChange={(event) => setBootName(event.target.value)}
                disabled={pending || taught !== null}
              />
            </label>
          ) : (
            <label className="field">
              Note on the allow-list
              <input value={note} maxLength={256} onChange={(event) => setNote(event.target.value)} disabled={pending || taught !== null} />
            </label>
          )}
          <TtlPicker value={form.ttl} onChange={form.setTtl} error={form.ttlError} disabled={pending} />
          <ReasonField
            label="Reason (optional)"
            value={form.reason}
            onChange={form.setReason}
            error={form.reasonError}
            disabled={pending}
          />
          <DialogFooter>
            <DialogCancel pending={pending} />
            <button type="submit" className="button button-primary" disabled={pending}>
              {pending ? "Working…" : SUBMIT[kind]}
            </button>
          </DialogFooter>
        </form>
      )}
    </ModalDialog>
  );
}
