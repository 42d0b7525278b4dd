-- AlterTable
ALTER TABLE "nodes" ADD COLUMN     "cert_not_after" TIMESTAMPTZ(3) NOT NULL,
ADD COLUMN     "enroll_key_id" TEXT,
ADD COLUMN     "join_token_id" TEXT,
ADD COLUMN     "mac_addresses" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "tpm_ek_sha256" TEXT;

-- CreateTable
CREATE TABLE "tenant_cas" (
    "tenant_id" TEXT NOT NULL,
    "certificate_pem" TEXT NOT NULL,
    "private_key_encrypted" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenant_cas_pkey" PRIMARY KEY ("tenant_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "join_requests_live_csr_key" ON "join_requests"("csr_sha256") WHERE (state IN ('pending', 'approved'));

-- CreateIndex
CREATE UNIQUE INDEX "nodes_csr_sha256_key" ON "nodes"("csr_sha256");
