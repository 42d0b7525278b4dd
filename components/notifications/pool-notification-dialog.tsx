"use client";
import { useId, useState, type ReactNode } from "react";
import { CallError } from "@/components/ui/call-error";
import { DialogSaveFooter, ModalDialog } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toast";
import { useUpdatePoolMutation } from "@/data/pools/update-pool-mutation";
import { MAX_ESCALATE_AFTER_MINUTES, NOTIFICATION_MODES, type NotificationMode } from "@/lib/notifications/settings-schemas";
import { MODE_LABELS } from "./mode-labels";

/** A pool's notification settings as its heading knows them. */
export interface PoolNotificationFacts {
  tenantId: string;
  poolId: string;
  notifyDefault: NotificationMode;
  escalateAfterMinutes: number | null;
  escalationEmails: string[];
}

/** Addresses as typed, one a line or separated by commas; the server checks, lowercases and de-duplicates them. */
const addressesOf = (text: string) =>
  text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * The delay as typed: blank is null (no escalation), a number is sent as one,
 * anything else as its text, which the server refuses naming the field (where
 * Number() would make "abc" NaN, sent as null: escalation silently off).
 */
const delayAsTyped = (text: string): number | null => {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  return Number.isFinite(Number(trimmed)) ? Number(trimmed) : (trimmed as unknown as number);
};

/**
 * pools/update's notifyDefault, escalateAfterMinutes and escalationEmails in
 * the console's dialog conventions: it cannot close while saving, and a
 * refusal (naming the field) shows inside it. A blank delay is "no escalation".
 */
export function PoolNotificationDialog(props: PoolNotificationFacts & { onClose: () => void; onSaved: () => void }) {
  const [notifyDefault, setNotifyDefault] = useState<NotificationMode>(props.notifyDefault);
  const [minutes, setMinutes] = useState(props.escalateAfterMinutes === null ? "" : String(props.escalateAfterMinutes));
  const [addresses, setAddresses] = useState(props.escalationEmails.join("\n"));
  const mutation = useUpdatePoolMutation(props.poolId, {
    onSuccess: (pool) => {
      toast.success(`${pool.id}: notification defaults saved`);
      props.onClose();
      props.onSaved();
    },
  });
  const pending = mutation.isPending;
  const invalid = (field: string) => mutation.error?.details.some((detail) => detail.field.startsWith(field)) || undefined;
  return (
    <ModalDialog
      open
      onOpenChange={(open) => (open ? undefined : props.onClose())}
      pending={pending}
      title={`Notifications in ${props.poolId}`}
      description="What the people who may decide this pool hear until they choose for themselves, and who hears of a request still waiting after a while."
      testId="pool-notification-dialog"
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          mutation.mutate({
            tenantId: props.tenantId,
            poolId: props.poolId,
            notifyDefault,
            escalateAfterMinutes: delayAsTyped(minutes),
            escalationEmails: addressesOf(addresses),
          });
        }}
      >
        <CallError error={mutation.error} testId="pool-notification-error" />
        <label className="field">
          Default for deciders
          <select value={notifyDefault} onChange={(event) => setNotifyDefault(event.target.value as NotificationMode)} disabled={pending}>
            {NOTIFICATION_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {MODE_LABELS[mode]}
              </option>
            ))}
          </select>
        </label>
        <HintedField
          label="Escalate after (minutes)"
          hint={`1 to ${MAX_ESCALATE_AFTER_MINUTES.toLocaleString("en")}; blank: no escalation.`}
        >
          {(described) => (
            <input
              className="input"
              inputMode="numeric"
              value={minutes}
              onChange={(event) => setMinutes(event.target.value)}
              aria-invalid={invalid("escalateAfterMinutes")}
              aria-describedby={described}
              disabled={pending}
            />
          )}
        </HintedField>
        <HintedField label="Escalation addresses" hint="One a line, at most 20.">
          {(described) => (
            <textarea
              className="input"
              rows={3}
              value={addresses}
              onChange={(event) => setAddresses(event.target.value)}
              aria-invalid={invalid("escalationEmails")}
              aria-describedby={described}
              disabled={pending}
            />
          )}
        </HintedField>
        <DialogSaveFooter pending={pending} />
      </form>
    </ModalDialog>
  );
}

/** A labelled control with a hint under it that describes it (the control gets the hint's id). */
function HintedField({ label, hint, children }: { label: string; hint: string; children: (describedBy: string) => ReactNode }) {
  const hintId = useId();
  return (
    <label className="field">
      {label}
      {children(hintId)}
      <span id={hintId} className="field-hint">
        {hint}
      </span>
    </label>
  );
}
