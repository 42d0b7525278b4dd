import "server-only";
import type { EkCertificateJson } from "@/lib/join-requests/join-request-json";

// SPEC I1: a request's EK certificate facts (issuer, serial, why it did not
// chain), read with the request in every statement that returns requests, as
// its approvals are. The subquery names the request's `id` unqualified: it
// resolves to the outer row because join_request_ek_certificates has no `id`.
export const EK_CERTIFICATE_COLUMN = `(SELECT jsonb_build_object('issuer', issuer, 'serial', serial, 'failure', failure, 'detail', detail)
    FROM join_request_ek_certificates WHERE request_id = id) AS "ekCertificate"`;

/** A request row read with JOIN_REQUEST_COLUMNS carries it (rows written through Prisma's model do not: read as null). */
export interface WithEkCertificate {
  ekCertificate?: EkCertificateJson;
}

export const ekCertificateJsonOf = (row: WithEkCertificate): EkCertificateJson => row.ekCertificate ?? null;
