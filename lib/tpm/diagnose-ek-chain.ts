import type * as pkijs from "pkijs";
import { describeCertificate, formatName, pkixCrypto } from "./x509-certificates";

// Why a chain pkijs refused failed, for the person deciding (SPEC I1: unknown
// issuer, expired, bad signature). pkijs says only "No valid certificate
// paths found" whether the issuer is missing or its signature is wrong, and
// "not yet valid or expired" without naming the certificate. We walk the
// names from the EK certificate up, as pkijs does, and name the first link
// that breaks. This never admits anything: pkijs has already said no.

const MAX_DEPTH = 8;
const AUTHORITY_KEY_ID = "2.5.29.35";
const SUBJECT_KEY_ID = "2.5.29.14";

export type EkCertificateFailureReason = "unknown-issuer" | "bad-signature" | "expired" | "not-yet-valid" | "invalid-chain";

interface Diagnosis {
  reason: EkCertificateFailureReason;
  detail: string;
}

export async function diagnoseChain({
  leaf,
  intermediates,
  roots,
  at,
}: {
  leaf: pkijs.Certificate;
  intermediates: pkijs.Certificate[];
  roots: pkijs.Certificate[];
  at: Date;
}): Promise<Diagnosis | null> {
  const isTrusted = (certificate: pkijs.Certificate) => roots.some((root) => sameCertificate(root, certificate));
  const path = [leaf];
  let current = leaf;
  while (!isTrusted(current)) {
    if (path.length > MAX_DEPTH) return { reason: "invalid-chain", detail: `the chain is longer than ${MAX_DEPTH} certificates` };
    const named = [...intermediates, ...roots].filter(
      (candidate) => !sameCertificate(candidate, current) && couldHaveIssued(candidate, current),
    );
    if (named.length === 0) {
      const selfSigned = current.subject.isEqual(current.issuer);
      return {
        reason: "unknown-issuer",
        detail: selfSigned
          ? `the chain ends at "${formatName(current.subject)}", which is not in the trust store`
          : `no certificate named "${formatName(current.issuer)}" is in the trust store or the chain`,
      };
    }
    const issuer = await firstThatSigned(current, named);
    if (!issuer) {
      const { subject, serial } = describeCertificate(current);
      return {
        reason: "bad-signature",
        detail: `the signature of "${subject || "(empty subject)"}" (serial ${serial}) does not verify with the key of "${formatName(named[0]!.subject)}"`,
      };
    }
    path.push(issuer);
    current = issuer;
  }
  for (const certificate of path) {
    const { subject, serial } = describeCertificate(certificate);
    const who = `"${subject || "(empty subject)"}" (serial ${serial})`;
    if (certificate.notAfter.value < at)
      return { reason: "expired", detail: `${who} expired at ${certificate.notAfter.value.toISOString()}` };
    if (certificate.notBefore.value > at)
      return { reason: "not-yet-valid", detail: `${who} is not valid before ${certificate.notBefore.value.toISOString()}` };
  }
  return null;
}

function sameCertificate(a: pkijs.Certificate, b: pkijs.Certificate): boolean {
  return Buffer.from(a.tbsView).equals(Buffer.from(b.tbsView));
}

/** Named as the issuer, and (where both say) holding the key the issuer's key identifier names. */
function couldHaveIssued(candidate: pkijs.Certificate, certificate: pkijs.Certificate): boolean {
  if (!candidate.subject.isEqual(certificate.issuer)) return false;
  const authorityKeyId = extension(certificate, AUTHORITY_KEY_ID) as pkijs.AuthorityKeyIdentifier | undefined;
  const subjectKeyId = extension(candidate, SUBJECT_KEY_ID) as { valueBlock: { valueHexView: Uint8Array } } | undefined;
  if (!authorityKeyId?.keyIdentifier || !subjectKeyId) return true;
  return Buffer.from(authorityKeyId.keyIdentifier.valueBlock.valueHexView).equals(Buffer.from(subjectKeyId.valueBlock.valueHexView));
}

function extension(certificate: pkijs.Certificate, oid: string): unknown {
  return certificate.extensions?.find((candidate) => candidate.extnID === oid)?.parsedValue;
}

async function firstThatSigned(certificate: pkijs.Certificate, candidates: pkijs.Certificate[]): Promise<pkijs.Certificate | undefined> {
  for (const candidate of candidates) {
    try {
      if (await certificate.verify(candidate, pkixCrypto)) return candidate;
    } catch {
      // an issuer key of a kind WebCrypto cannot use signs nothing we can check
    }
  }
  return undefined;
}
