-- Administration without the demo seed (SPEC E1, E2): the tenant-admin role,
-- disabled users, and events for administrative changes above any site or tenant.
-- The diff also dropped and re-created the three partial join_requests indexes
-- unchanged (the engine reads their WHERE back in another spelling); left out.

-- AlterEnum
ALTER TYPE "role" ADD VALUE 'tenant_admin';

-- AlterTable
ALTER TABLE "events" ALTER COLUMN "tenant_id" DROP NOT NULL,
ALTER COLUMN "site_id" DROP NOT NULL;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "disabled_at" TIMESTAMPTZ(3);

-- Written by hand: tenant-admin is granted on a whole tenant, never on one pool.
-- Compared as text: a new enum value cannot be used in the transaction that adds it.
ALTER TABLE "role_grants" ADD CONSTRAINT "role_grants_tenant_admin_tenant_wide" CHECK ("role"::text <> 'tenant_admin' OR "pool_id" IS NULL);
