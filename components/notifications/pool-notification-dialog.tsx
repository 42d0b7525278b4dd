"use client";
import { useState } from "react";
import { CallError } from "@/components/ui/call-error";
import { DialogCancel, DialogFooter, ModalDialog } from "@/components/ui/dialog";
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
        <label className="field">
          Escalate after (minutes)
          <input
            className="input"
            inputMode="numeric"
            value={minutes}
            onChange={(event) => setMinutes(event.target.value)}
            aria-invalid={invalid("escalateAfterMinutes")}
            aria-describedby="escalate-hint"
            disabled={pending}
          />
          <span id="escalate-hint" className="field-hint">
            1 to {MAX_ESCALATE_AFTER_MINUTES.toLocaleString("en")}; blank: no escalation.
          </span>
        </label>
        <label className="field">
          Escalation addresses
          <textarea
            className="input"
            rows={3}
            value={addresses}
            onChange={(event) => setAddresses(event.target.value)}
            aria-invalid={invalid("escalationEmails")}
            aria-describedby="addresses-hint"
            disabled={pending}
          />
          <span id="addresses-hint" className="field-hint">
            One a line, at most 20.
          </span>
        </label>
        <DialogFooter>
          <DialogCancel pending={pending} />
          <button type="submit" className="button button-primary" disabled={pending}>
            {pending ? "Saving…" : "Save"}
          </button>
        </DialogFooter>
      </form>
    </ModalDialog>
  );
}
