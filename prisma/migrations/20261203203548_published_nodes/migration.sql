-- Nodes as published resources (SPEC D1, D2): state and revocation, last
-- seen, the current certificate's facts, and every certificate issued with
-- the public key the node's JWTs are verified against.
-- The diff also dropped and re-created the three partial join_requests
-- indexes unchanged (the engine reads their WHERE back in another spelling); left out.

-- CreateEnum
CREATE TYPE "node_state" AS ENUM ('active', 'revoked');

-- DropIndex
DROP INDEX "nodes_pool_id_idx";

-- AlterTable
ALTER TABLE "nodes" ADD COLUMN     "cert_not_before" TIMESTAMPTZ(3),
ADD COLUMN     "cert_sha256" TEXT,
ADD COLUMN     "last_seen_at" TIMESTAMPTZ(3),
ADD COLUMN     "revoke_reason" TEXT,
ADD COLUMN     "revoked_at" TIMESTAMPTZ(3),
ADD COLUMN     "revoked_by" TEXT,
ADD COLUMN     "state" "node_state" NOT NULL DEFAULT 'active';

-- Written by hand: nodes admitted before this migration were issued 30-day
-- certificates; their DER was not kept (cert_sha256 stays null, and they
-- have no node_certificates row, so they must join again to speak as nodes).
UPDATE "nodes" SET "cert_not_before" = "cert_not_after" - interval '30 days';

-- Written by hand: revoked exactly when the revocation is recorded.
ALTER TABLE "nodes" ADD CONSTRAINT "nodes_revoked_has_time" CHECK (("state" = 'revoked') = ("revoked_at" IS NOT NULL));

-- CreateTable
CREATE TABLE "node_certificates" (
    "id" BIGSERIAL NOT NULL,
    "node_id" TEXT NOT NULL,
    "serial" TEXT NOT NULL,
    "not_before" TIMESTAMPTZ(3) NOT NULL,
    "not_after" TIMESTAMPTZ(3) NOT NULL,
    "sha256" TEXT NOT NULL,
    "public_key" BYTEA NOT NULL,

    CONSTRAINT "node_certificates_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "node_certificates_node_id_not_after_idx" ON "node_certificates"("node_id", "not_after");

-- CreateIndex
CREATE INDEX "nodes_pool_id_state_id_idx" ON "nodes"("pool_id", "state", "id");

-- CreateIndex
CREATE INDEX "nodes_tenant_id_system_uuid_idx" ON "nodes"("tenant_id", "system_uuid");

-- AddForeignKey
ALTER TABLE "node_certificates" ADD CONSTRAINT "node_certificates_node_id_fkey" FOREIGN KEY ("node_id") REFERENCES "nodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
