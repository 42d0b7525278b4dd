-- bc:no-transaction
-- Retention deletes inventory snapshots taken before its window (SPEC G5,
-- BC_INVENTORY_RETENTION_DAYS): without this index each of its batches
-- scanned every node's whole history. Built concurrently, so reports go on
-- while it builds; no data changes.

-- CreateIndex
CREATE INDEX CONCURRENTLY IF NOT EXISTS "inventory_snapshots_taken_at_idx" ON "inventory_snapshots"("taken_at");
