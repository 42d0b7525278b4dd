-- SPEC G2: a TPM pool admits only proven TPMs, so a request and a node say
-- whether their EK was proven by credential activation (F1), not only which
-- EK hash was reported. New joins record the hash only when proven.
--
-- Backfill, honestly: a legacy row is proven only where the proof can still
-- be seen, i.e. a used tpm_challenges row of the same tenant, CSR and EK (the
-- activation that recorded the row used it up). Everything else reads as not
-- proven: before F1 no EK was proven, site-enrollment-key joins and joins into
-- pools without TPM were never challenged, and challenges are deleted a day
-- after they expire (retention), so an older proof cannot be told apart from
-- none. Erring that way only means a person decides again; no node is revoked.
-- (The schema diff also dropped and re-created three partial indexes of
-- join_requests unchanged, its known misreading of their WHERE: left out.)

-- AlterTable
ALTER TABLE "join_requests" ADD COLUMN "tpm_ek_proven" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "nodes" ADD COLUMN "tpm_ek_proven" BOOLEAN NOT NULL DEFAULT false;

-- Backfill
UPDATE "join_requests" AS r SET "tpm_ek_proven" = true
WHERE r."tpm_ek_sha256" IS NOT NULL AND EXISTS (
  SELECT 1 FROM "tpm_challenges" AS c
  WHERE c."tenant_id" = r."tenant_id" AND c."csr_sha256" = r."csr_sha256"
    AND c."ek_sha256" = r."tpm_ek_sha256" AND c."used_at" IS NOT NULL);

UPDATE "nodes" AS n SET "tpm_ek_proven" = true
WHERE n."tpm_ek_sha256" IS NOT NULL AND EXISTS (
  SELECT 1 FROM "tpm_challenges" AS c
  WHERE c."tenant_id" = n."tenant_id" AND c."csr_sha256" = n."csr_sha256"
    AND c."ek_sha256" = n."tpm_ek_sha256" AND c."used_at" IS NOT NULL);
