-- Machine identity that cannot be borrowed (SPEC Part F): one active node per
-- machine and per hostname (F2, F3), enrollment keys with a use limit (F4),
-- and credential-activation challenges (F1).
-- The diff also dropped and re-created the three partial join_requests
-- indexes unchanged (the engine reads their WHERE back in another spelling); left out.

-- AlterTable
ALTER TABLE "nodes" ADD COLUMN     "hostname_key" TEXT,
ADD COLUMN     "uuid_key" TEXT;

-- Written by hand: the keys of nodes admitted before this migration. Where
-- several active nodes of a tenant share a system UUID or a hostname (D1
-- allowed it), only the newest holds the key; the older ones stay active,
-- as they were, until someone revokes them. Placeholder UUIDs are not told
-- apart here (that list lives in the hardware attestor); a placeholder key
-- held by one old node blocks nothing, because new joins never look one up.
UPDATE "nodes" AS n SET "uuid_key" = lower(btrim(n."system_uuid"))
WHERE n."state" = 'active' AND NOT EXISTS (
  SELECT 1 FROM "nodes" AS newer
  WHERE newer."tenant_id" = n."tenant_id" AND newer."state" = 'active' AND newer."id" > n."id"
    AND lower(btrim(newer."system_uuid")) = lower(btrim(n."system_uuid")));
UPDATE "nodes" AS n SET "hostname_key" = lower(n."hostname")
WHERE n."state" = 'active' AND NOT EXISTS (
  SELECT 1 FROM "nodes" AS newer
  WHERE newer."tenant_id" = n."tenant_id" AND newer."state" = 'active' AND newer."id" > n."id"
    AND lower(newer."hostname") = lower(n."hostname"));

-- AlterTable (written by hand: keys made before this migration get 1000 uses, like the demo's)
ALTER TABLE "site_enrollment_keys" ADD COLUMN     "max_uses" INTEGER NOT NULL DEFAULT 1000,
ADD COLUMN     "uses" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "site_enrollment_keys" ALTER COLUMN "max_uses" DROP DEFAULT;

-- CreateTable
CREATE TABLE "enrollment_key_uses" (
    "key_id" TEXT NOT NULL,
    "csr_sha256" TEXT NOT NULL,
    "used_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "enrollment_key_uses_pkey" PRIMARY KEY ("key_id","csr_sha256")
);

-- CreateTable
CREATE TABLE "tpm_challenges" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "csr_sha256" TEXT NOT NULL,
    "ek_sha256" TEXT NOT NULL,
    "ak_name" TEXT NOT NULL,
    "secret_hash" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "tpm_challenges_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "tpm_challenges_expires_at_idx" ON "tpm_challenges"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "nodes_active_uuid_key" ON "nodes"("tenant_id", "uuid_key") WHERE (state = 'active');

-- CreateIndex
CREATE UNIQUE INDEX "nodes_active_hostname_key" ON "nodes"("tenant_id", "hostname_key") WHERE (state = 'active');
