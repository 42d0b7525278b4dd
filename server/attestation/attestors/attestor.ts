import "server-only";
import type { Db } from "../../db/client";
import type { PoolFacts } from "../../places/find-pool";
import type { PresentedEkCertificate } from "../tpm/presented-ek-certificate";
import type { EkCertificateJson, JoinRequestReason } from "@/lib/join-requests/join-request-json";

// An attestor judges one thing about a joining machine (SPEC B5). It may
// defer the join (its reason lands in the request's `reasons`), refuse it
// outright by throwing an ApiError, or, for discovery, tell which pool a
// site-enrollment-key join goes into.

export interface JoiningMachine {
  hostname: string;
  systemUuid: string;
  serialNumber: string;
  macAddresses: string[];
  /** SHA-256 of the presented endorsement key's DER SPKI; null: no TPM presented */
  tpmEkSha256: string | null;
}

export interface AttestationSubject {
  tenantId: string;
  siteId: string;
  /** The pool joined: the join token's, or for a site enrollment key the one discovery assigns (null until then). */
  pool: PoolFacts | null;
  credential: "join-token" | "site-enrollment-key";
  machine: JoiningMachine;
  /** SPEC F1: the presented AK's Name (null: none), and whether this join proved the EK by credential activation */
  tpmProof: { akName: Buffer | null; proven: boolean; ekCertificate?: PresentedEkCertificate };
}

export interface Verdict {
  defer?: JoinRequestReason;
  /** discovery, for a site-enrollment-key join: the pool the inventory assigns the machine */
  pool?: PoolFacts;
  /** tpm: the EK must be proven first (SPEC F1); the join is answered with a challenge */
  challenge?: true;
  /** tpm: what the EK certificate said, for the request to show (SPEC I1) */
  ekCertificate?: NonNullable<EkCertificateJson>;
}

export interface Attestor {
  name: "hardware" | "discovery" | "tpm" | "active-machine" | "active-hostname";
  attest(db: Db, subject: AttestationSubject): Promise<Verdict>;
}
