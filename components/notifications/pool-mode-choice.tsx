"use client";
import { useState } from "react";
import choiceFilter from "@/components/ui/choice-filter.module.css";
import { CallError } from "@/components/ui/call-error";
import { toast } from "@/components/ui/toast";
import { useUpdateSettingMutation } from "@/data/notification-settings/update-setting-mutation";
import { NOTIFICATION_MODES, type PoolNotificationSettingJson } from "@/lib/notifications/settings-schemas";
import { MODE_LABELS } from "./mode-labels";
import styles from "./notification-settings.module.css";

const DEFAULT = "default";
type Choice = (typeof NOTIFICATION_MODES)[number] | typeof DEFAULT;

/**
 * One pool's row: native radios (Tab into the group, arrows move and choose),
 * saved as soon as one is chosen. The choice shows at once; a refused save
 * puts back what the server holds and says why beside it.
 */
export function PoolModeChoice({ setting }: { setting: PoolNotificationSettingJson }) {
  const saved: Choice = setting.source === "mine" ? setting.mode : DEFAULT;
  const [chosen, setChosen] = useState<Choice | null>(null);
  const mutation = useUpdateSettingMutation(setting, {
    onSuccess: (answer) => {
      // an earlier save answering while a later one is on its way leaves the later choice shown
      const answered: Choice = answer.source === "mine" ? answer.mode : DEFAULT;
      setChosen((choice) => (choice === answered ? null : choice));
      toast.success(`${answer.poolName}: ${MODE_LABELS[answer.mode]}${answer.source === "pool-default" ? " (the pool's default)" : ""}`);
    },
  });
  const current = chosen ?? saved;
  const choose = (choice: Choice) => {
    setChosen(choice);
    mutation.mutate(choice === DEFAULT ? null : choice, { onError: () => setChosen(null) });
  };
  const labelId = `pool-${setting.poolId}`;
  const choices: { value: Choice; label: string }[] = [
    { value: DEFAULT, label: `Pool default (${MODE_LABELS[setting.poolDefault]})` },
    ...NOTIFICATION_MODES.map((mode) => ({ value: mode, label: MODE_LABELS[mode] })),
  ];
  return (
    <li className={`card ${styles.row}`} data-testid="pool-notification-setting" data-pool-id={setting.poolId}>
      <div className={styles.heading}>
        <div>
          <strong id={labelId}>{setting.poolName}</strong>{" "}
          <span className="mono muted">
            {setting.tenantId} · {setting.siteId} · {setting.poolId}
          </span>
        </div>
        <span className="field-hint" aria-live="polite" data-testid="save-status">
          {mutation.isPending ? "Saving…" : mutation.isSuccess ? "Saved" : ""}
        </span>
      </div>
      <fieldset className={`${choiceFilter.filters} ${styles.choices}`} aria-labelledby={labelId}>
        {choices.map((choice) => (
          <label key={choice.value} className={choiceFilter.filter}>
            <input
              type="radio"
              name={`mode-${setting.poolId}`}
              value={choice.value}
              className={choiceFilter.radio}
              checked={current === choice.value}
              onChange={() => choose(choice.value)}
            />
            {choice.label}
          </label>
        ))}
      </fieldset>
      <CallError error={mutation.error} testId="setting-error" />
    </li>
  );
}
