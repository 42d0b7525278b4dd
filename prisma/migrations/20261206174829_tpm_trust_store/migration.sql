-- SPEC I1: a tenant's TPM trust store (manufacturer roots for EK
-- certificates), and what a join's EK certificate said, kept with its request.

-- CreateTable
CREATE TABLE "tpm_trusted_roots" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "pem" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "not_before" TIMESTAMPTZ(3) NOT NULL,
    "not_after" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tpm_trusted_roots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "join_request_ek_certificates" (
    "request_id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "serial" TEXT NOT NULL,
    "failure" TEXT,
    "detail" TEXT,

    CONSTRAINT "join_request_ek_certificates_pkey" PRIMARY KEY ("request_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "tpm_trusted_roots_tenant_id_sha256_key" ON "tpm_trusted_roots"("tenant_id", "sha256");

-- AddForeignKey
ALTER TABLE "join_request_ek_certificates" ADD CONSTRAINT "join_request_ek_certificates_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "join_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;
