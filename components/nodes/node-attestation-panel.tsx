import { LocalTime } from "@/components/join-requests/countdown";
import styles from "@/components/join-requests/request-detail.module.css";
import type { NodeAttestationJson } from "@/lib/nodes/node-attestation";
import { AttestationBadge } from "./attestation-badge";
import nodeStyles from "./node.module.css";

/**
 * SPEC I3 on the node page: the state, when, the boot state matched, and the
 * quoted values, those no known boot state holds first and marked: what an
 * operator compares with the pool's states when a node turns untrusted.
 */
export function NodeAttestationPanel({ attestation }: { attestation: NodeAttestationJson }) {
  const pcrs = Object.entries(attestation?.pcrs ?? {});
  const unmatched = new Set(attestation?.unmatchedPcrs ?? []);
  pcrs.sort(([a], [b]) => Number(unmatched.has(Number(b))) - Number(unmatched.has(Number(a))) || Number(a) - Number(b));
  return (
    <section className={`card ${styles.panel}`} aria-labelledby="attestation-title" data-testid="attestation">
      <h2 id="attestation-title">
        Attestation <AttestationBadge attestation={attestation} />
      </h2>
      {!attestation ? (
        <p className="muted">The node has not attested its boot (nodes/attest), and its pool does not require it.</p>
      ) : (
        <>
          <dl className={styles.fields}>
            <dt>Last quote</dt>
            <dd>{attestation.at ? <LocalTime iso={attestation.at} /> : <span className="muted">never</span>}</dd>
            <dt>Boot state</dt>
            <dd>{attestation.bootState ?? <span className="muted">none matched</span>}</dd>
          </dl>
          {attestation.state === "untrusted" ? (
            <p data-testid="attestation-unmatched">
              {unmatched.size > 0
                ? `PCR ${[...unmatched].join(", ")} matched no known boot state of the pool.`
                : "Each value is some boot state's, but no one state holds them all."}
            </p>
          ) : null}
          {pcrs.length > 0 ? (
            <table className={nodeStyles.pcrs} data-testid="attestation-pcrs">
              <caption className="muted">SHA-256 PCR values of the last quote</caption>
              <thead>
                <tr>
                  <th scope="col">PCR</th>
                  <th scope="col">Value</th>
                </tr>
              </thead>
              <tbody>
                {pcrs.map(([index, value]) => (
                  <tr key={index} data-unmatched={unmatched.has(Number(index)) ? "true" : undefined}>
                    <th scope="row">{index}</th>
                    <td className="mono">
                      {value}
                      {unmatched.has(Number(index)) ? (
                        <span className={`badge badge-rejected ${nodeStyles.pcrBadge}`}>no known state</span>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </>
      )}
    </section>
  );
}
