-- CreateEnum
CREATE TYPE "node_attestation_state" AS ENUM ('trusted', 'untrusted');

-- AlterTable
ALTER TABLE "nodes" ADD COLUMN     "attestation_boot_state" TEXT,
ADD COLUMN     "attestation_pcrs" JSONB,
ADD COLUMN     "attestation_state" "node_attestation_state",
ADD COLUMN     "attestation_unmatched" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN     "attested_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "node_attestation_challenges" (
    "id" TEXT NOT NULL,
    "node_id" TEXT NOT NULL,
    "nonce" BYTEA NOT NULL,
    "pcr_selection" INTEGER[],
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "node_attestation_challenges_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "node_attestation_challenges_expires_at_idx" ON "node_attestation_challenges"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "node_attestation_challenges_node_id_nonce_key" ON "node_attestation_challenges"("node_id", "nonce");

-- CreateIndex
CREATE INDEX "nodes_pool_id_attestation_state_id_idx" ON "nodes"("pool_id", "attestation_state", "id");

-- CreateIndex
CREATE INDEX "nodes_pool_id_attested_at_idx" ON "nodes"("pool_id", "attested_at");

-- AddForeignKey
ALTER TABLE "node_attestation_challenges" ADD CONSTRAINT "node_attestation_challenges_node_id_fkey" FOREIGN KEY ("node_id") REFERENCES "nodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
