-- CreateEnum
CREATE TYPE "role" AS ENUM ('pool_viewer', 'pool_admin');

-- CreateEnum
CREATE TYPE "join_request_state" AS ENUM ('pending', 'approved', 'rejected', 'expired', 'consumed');

-- CreateTable
CREATE TABLE "tenants" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sites" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pools" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "site_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "requires_tpm" BOOLEAN NOT NULL DEFAULT false,
    "archived_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pools_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "password_hash" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "service_keys" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "secret_hash" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "service_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "role_grants" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "pool_id" TEXT,
    "role" "role" NOT NULL,
    "user_id" TEXT,
    "service_key_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "role_grants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "join_tokens" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "pool_id" TEXT NOT NULL,
    "secret_hash" BYTEA NOT NULL,
    "max_uses" INTEGER NOT NULL,
    "uses" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT NOT NULL,

    CONSTRAINT "join_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "join_token_uses" (
    "token_id" TEXT NOT NULL,
    "csr_sha256" TEXT NOT NULL,
    "used_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "join_token_uses_pkey" PRIMARY KEY ("token_id","csr_sha256")
);

-- CreateTable
CREATE TABLE "site_enrollment_keys" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "site_id" TEXT NOT NULL,
    "secret_hash" BYTEA NOT NULL,
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "site_enrollment_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "discovered_machines" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "site_id" TEXT NOT NULL,
    "system_uuid" TEXT NOT NULL,
    "mac_addresses" TEXT[],
    "assigned_pool_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "discovered_machines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tpm_allowed_keys" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "ek_sha256" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tpm_allowed_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "join_requests" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "site_id" TEXT NOT NULL,
    "pool_id" TEXT,
    "state" "join_request_state" NOT NULL,
    "reasons" TEXT[],
    "hostname" TEXT NOT NULL,
    "system_uuid" TEXT NOT NULL,
    "serial_number" TEXT NOT NULL,
    "mac_addresses" TEXT[],
    "tpm_ek_sha256" TEXT,
    "csr_sha256" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "decided_at" TIMESTAMPTZ(3),
    "decided_by" TEXT,
    "reason" TEXT,
    "consumed_at" TIMESTAMPTZ(3),
    "join_token_id" TEXT,
    "enroll_key_id" TEXT,

    CONSTRAINT "join_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "nodes" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "site_id" TEXT NOT NULL,
    "pool_id" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "system_uuid" TEXT NOT NULL,
    "serial_number" TEXT NOT NULL,
    "csr_sha256" TEXT NOT NULL,
    "join_request_id" TEXT,
    "cert_serial" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "nodes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "site_id" TEXT NOT NULL,
    "pool_id" TEXT,
    "request_id" TEXT,
    "data" JSONB NOT NULL,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sites_tenant_id_idx" ON "sites"("tenant_id");

-- CreateIndex
CREATE INDEX "pools_tenant_id_idx" ON "pools"("tenant_id");

-- CreateIndex
CREATE INDEX "pools_site_id_idx" ON "pools"("site_id");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "service_keys_tenant_id_idx" ON "service_keys"("tenant_id");

-- CreateIndex
CREATE INDEX "role_grants_user_id_idx" ON "role_grants"("user_id");

-- CreateIndex
CREATE INDEX "role_grants_service_key_id_idx" ON "role_grants"("service_key_id");

-- CreateIndex
CREATE INDEX "join_tokens_pool_id_idx" ON "join_tokens"("pool_id");

-- CreateIndex
CREATE INDEX "site_enrollment_keys_site_id_idx" ON "site_enrollment_keys"("site_id");

-- CreateIndex
CREATE UNIQUE INDEX "discovered_machines_site_id_system_uuid_key" ON "discovered_machines"("site_id", "system_uuid");

-- CreateIndex
CREATE UNIQUE INDEX "tpm_allowed_keys_tenant_id_ek_sha256_key" ON "tpm_allowed_keys"("tenant_id", "ek_sha256");

-- CreateIndex
CREATE INDEX "join_requests_pool_id_state_id_idx" ON "join_requests"("pool_id", "state", "id");

-- CreateIndex
CREATE INDEX "join_requests_pool_id_id_idx" ON "join_requests"("pool_id", "id");

-- CreateIndex
CREATE INDEX "join_requests_unclaimed_state_id_idx" ON "join_requests"("site_id", "state", "id") WHERE (pool_id IS NULL);

-- CreateIndex
CREATE INDEX "join_requests_unclaimed_id_idx" ON "join_requests"("site_id", "id") WHERE (pool_id IS NULL);

-- CreateIndex
CREATE INDEX "join_requests_csr_sha256_idx" ON "join_requests"("csr_sha256");

-- CreateIndex
CREATE INDEX "join_requests_state_expires_at_idx" ON "join_requests"("state", "expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "nodes_join_request_id_key" ON "nodes"("join_request_id");

-- CreateIndex
CREATE INDEX "nodes_pool_id_idx" ON "nodes"("pool_id");

-- CreateIndex
CREATE INDEX "events_request_id_id_idx" ON "events"("request_id", "id");

-- CreateIndex
CREATE INDEX "events_pool_id_id_idx" ON "events"("pool_id", "id");

-- CreateIndex
CREATE INDEX "events_tenant_id_id_idx" ON "events"("tenant_id", "id");

-- AddForeignKey
ALTER TABLE "sites" ADD CONSTRAINT "sites_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pools" ADD CONSTRAINT "pools_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pools" ADD CONSTRAINT "pools_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "role_grants" ADD CONSTRAINT "role_grants_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "role_grants" ADD CONSTRAINT "role_grants_service_key_id_fkey" FOREIGN KEY ("service_key_id") REFERENCES "service_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (Prisma does not model CHECK constraints, and its diff leaves
-- them alone): invariants the application relies on, enforced by the database
-- so that no code path can break them.

-- A grant belongs to exactly one principal: a user or a service key.
ALTER TABLE "role_grants" ADD CONSTRAINT "role_grants_one_principal" CHECK (num_nonnulls("user_id", "service_key_id") = 1);

-- A join token is never used more often than it allows (a concurrent admit
-- that would overshoot fails instead of being counted).
ALTER TABLE "join_tokens" ADD CONSTRAINT "join_tokens_uses_within_max" CHECK ("uses" >= 0 AND "uses" <= "max_uses");
