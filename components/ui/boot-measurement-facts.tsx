import type { BootMeasurementJson } from "@/lib/join-requests/join-request-json";
import styles from "./boot-measurement-facts.module.css";

/**
 * SPEC I2: the PCR values the join's TPM quote attested, in a detail page's
 * field list, and the pool's boot state they matched (or that they matched
 * none). Values are 64 hex digits: monospace, and they wrap on a phone.
 */
export function BootMeasurementFacts({ measurement }: { measurement: BootMeasurementJson }) {
  if (!measurement) return null;
  const indices = Object.keys(measurement.pcrs).sort((a, b) => Number(a) - Number(b));
  return (
    <>
      <dt>Boot values</dt>
      <dd data-testid="boot-measurement">
        {measurement.bootState ? (
          <span>
            Matches the known boot state <strong>{measurement.bootState}</strong>
          </span>
        ) : (
          <span>Match no known boot state of the pool</span>
        )}
        <dl className={styles.pcrs} aria-label="Quoted PCR values (SHA-256)">
          {indices.map((index) => (
            <div key={index} className={styles.pcr}>
              <dt>PCR {index}</dt>
              <dd className="mono">{measurement.pcrs[index]}</dd>
            </div>
          ))}
        </dl>
      </dd>
    </>
  );
}
