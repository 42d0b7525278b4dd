-- bc:no-transaction
-- SPEC G8: a CSR's history (its requests, its node) is its tenant's. A CSR
-- joined first in another tenant must neither block this tenant's join nor be
-- found by it, so every key and lookup by CSR takes the tenant first. The new
-- keys are wider than the old ones, so existing rows satisfy them. Built
-- concurrently (joins go on meanwhile); the old keys go only once the new ones
-- stand, so no moment is without a unique key. Re-runnable (IF [NOT] EXISTS).

-- CreateIndex
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "join_requests_tenant_live_csr_key" ON "join_requests"("tenant_id", "csr_sha256") WHERE (state IN ('pending', 'approved'));

-- CreateIndex
CREATE INDEX CONCURRENTLY IF NOT EXISTS "join_requests_tenant_id_csr_sha256_id_idx" ON "join_requests"("tenant_id", "csr_sha256", "id");

-- CreateIndex
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "nodes_tenant_id_csr_sha256_key" ON "nodes"("tenant_id", "csr_sha256");

-- DropIndex
DROP INDEX CONCURRENTLY IF EXISTS "join_requests_live_csr_key";

-- DropIndex
DROP INDEX CONCURRENTLY IF EXISTS "join_requests_csr_sha256_idx";

-- DropIndex
DROP INDEX CONCURRENTLY IF EXISTS "nodes_csr_sha256_key";
