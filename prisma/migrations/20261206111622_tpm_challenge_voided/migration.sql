-- SPEC G4: a CSR holds at most one live challenge; a new one voids the earlier.
-- (db:diff also proposed dropping and re-creating the join_requests partial
-- indexes, which it cannot read back; those are unchanged and left out.)

-- AlterTable
ALTER TABLE "tpm_challenges" ADD COLUMN     "voided_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "tpm_challenges_tenant_id_csr_sha256_idx" ON "tpm_challenges"("tenant_id", "csr_sha256");
