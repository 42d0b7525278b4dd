import "server-only";
import { Prisma } from "../db/generated/client";

// A CSR is admitted once its tenant holds a node made with it (one per CSR of
// a tenant: nodes_tenant_id_csr_sha256_key, SPEC G8). Its joins are then
// answered 409 (SPEC B5): the join reads this with the CSR's history, and a
// deferral again inside its transaction (defer-join.ts says why).

/** SQL: true when a node of `tenantId` was admitted with this CSR. */
export const csrAdmittedSql = (tenantId: string, csrSha256: string): Prisma.Sql =>
  Prisma.sql`EXISTS (SELECT 1 FROM nodes WHERE tenant_id = ${tenantId} AND csr_sha256 = ${csrSha256})`;

/** The answer to a join whose CSR already has a node. */
export const CSR_ADMITTED_MESSAGE = "this CSR was already admitted; make a new key pair and CSR to join again";
