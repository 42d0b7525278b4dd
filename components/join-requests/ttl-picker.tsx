"use client";
import { TTL_PRESETS, TTL_UNITS, type TtlChoice, type TtlUnit } from "./ttl";
import styles from "./decision-form.module.css";

/** Presets or a custom amount with its unit; `error` comes from the shared schema. */
export function TtlPicker(props: { value: TtlChoice; onChange: (value: TtlChoice) => void; error: string | null; disabled: boolean }) {
  const { value, onChange, error, disabled } = props;
  const custom = value.kind === "custom" ? value : null;
  return (
    <fieldset className={`field ${styles.fieldset}`} disabled={disabled}>
      <legend>Time to live of the approval</legend>
      <div className={styles.presets} role="radiogroup" aria-label="Time to live">
        {TTL_PRESETS.map((preset) => (
          <label key={preset.seconds} className={styles.preset}>
            <input
              type="radio"
              name="ttl"
              checked={value.kind === "preset" && value.seconds === preset.seconds}
              onChange={() => onChange({ kind: "preset", seconds: preset.seconds })}
            />
            {preset.label}
          </label>
        ))}
        <label className={styles.preset}>
          <input
            type="radio"
            name="ttl"
            checked={custom !== null}
            onChange={() => onChange({ kind: "custom", amount: "", unit: "minutes" })}
          />
          Custom
        </label>
      </div>
      {custom ? (
        <div className={styles.custom}>
          <label htmlFor="ttl-amount" className="visually-hidden">
            Custom time to live amount
          </label>
          <input
            id="ttl-amount"
            className="input"
            inputMode="decimal"
            autoComplete="off"
            placeholder="e.g. 90"
            value={custom.amount}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "ttl-error" : "ttl-hint"}
            onChange={(event) => onChange({ ...custom, amount: event.target.value })}
            autoFocus
          />
          <label htmlFor="ttl-unit" className="visually-hidden">
            Custom time to live unit
          </label>
          <select
            id="ttl-unit"
            className="input"
            value={custom.unit}
            onChange={(event) => onChange({ ...custom, unit: event.target.value as TtlUnit })}
          >
            {Object.keys(TTL_UNITS).map((unit) => (
              <option key={unit} value={unit}>
                {unit}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {error ? (
        <p id="ttl-error" className="field-error" data-testid="ttl-error">
          {error}
        </p>
      ) : (
        <p id="ttl-hint" className="field-hint">
          From 1 minute to 24 hours. The machine must retry its join within this time.
        </p>
      )}
    </fieldset>
  );
}
