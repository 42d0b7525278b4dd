import "server-only";
import type { Db } from "../../db/client";
import type { EkCertificateJson } from "@/lib/join-requests/join-request-json";
import { readEkCertificateKey } from "@/lib/tpm/ek-certificate-key";
import { verifyEkCertificate } from "@/lib/tpm/verify-ek-certificate";
import { trustedRootPems } from "../trust-store/tpm-trust-store";
import type { PresentedEkCertificate } from "./presented-ek-certificate";

export interface EkCertificateJudgement {
  /** the certificate chains to a root of the tenant's trust store at the time of the join */
  trusted: boolean;
  facts: NonNullable<EkCertificateJson>;
}

/**
 * SPEC I1: whether a proven EK's certificate vouches for it in this tenant.
 * Only ever trusted for the EK it certifies: a certificate for any other key
 * (the join refuses one with a 400 first; this holds even if a caller did
 * not) is never trusted, whatever it chains to.
 */
export async function judgeEkCertificate(
  db: Db,
  tenantId: string,
  ekSha256: string,
  presented: PresentedEkCertificate,
): Promise<EkCertificateJudgement> {
  const verdict = await verifyEkCertificate({
    certificate: presented.certificate,
    chain: presented.chain,
    trustedRoots: await trustedRootPems(db, tenantId),
    at: presented.at,
  });
  const { issuer, serial } = verdict;
  if (readEkCertificateKey(presented.certificate).sha256 !== ekSha256) {
    return {
      trusted: false,
      facts: { issuer, serial, failure: "invalid-chain", detail: "the certificate is for another key than the proven EK" },
    };
  }
  if (!verdict.ok) return { trusted: false, facts: { issuer, serial, failure: verdict.reason, detail: verdict.detail } };
  return { trusted: true, facts: { issuer, serial, failure: null, detail: null } };
}
