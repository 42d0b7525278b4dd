-- SPEC I2/I3: a pool's known boot states; the quote a TPM join's challenge
-- asks for; what a join's quote measured; the AK a node's later quotes are
-- signed by.

-- AlterTable
ALTER TABLE "nodes" ADD COLUMN     "tpm_ak_public" BYTEA;

-- AlterTable
ALTER TABLE "pools" ADD COLUMN     "boot_states" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "require_known_boot" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "tpm_challenges" ADD COLUMN     "pcr_selection" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN     "quote_nonce" BYTEA;

-- CreateTable
CREATE TABLE "join_request_boot_measurements" (
    "request_id" TEXT NOT NULL,
    "pcrs" JSONB NOT NULL,
    "boot_state" TEXT,

    CONSTRAINT "join_request_boot_measurements_pkey" PRIMARY KEY ("request_id")
);

-- AddForeignKey
ALTER TABLE "join_request_boot_measurements" ADD CONSTRAINT "join_request_boot_measurements_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "join_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;
