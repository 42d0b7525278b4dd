import type { EkCertificateJson } from "@/lib/join-requests/join-request-json";

const FAILURE_WORDS: Record<NonNullable<NonNullable<EkCertificateJson>["failure"]>, string> = {
  "unknown-issuer": "Issuer not in the TPM trust store",
  "bad-signature": "Signature does not verify",
  expired: "Expired",
  "not-yet-valid": "Not yet valid",
  "invalid-chain": "Chain not valid",
};

/** SPEC I1: the join's EK certificate in a detail page's field list: issuer, serial, and whether (or why not) it chained. */
export function EkCertificateFacts({ certificate }: { certificate: EkCertificateJson }) {
  if (!certificate) return null;
  return (
    <>
      <dt>EK certificate</dt>
      <dd data-testid="ek-certificate">
        <span className="mono">{certificate.issuer || "(empty issuer)"}</span>, serial <span className="mono">{certificate.serial}</span>
        <br />
        {certificate.failure ? (
          <span>
            {FAILURE_WORDS[certificate.failure]}: {certificate.detail}
          </span>
        ) : (
          <span>Chains to a root in the tenant&apos;s TPM trust store</span>
        )}
      </dd>
    </>
  );
}
