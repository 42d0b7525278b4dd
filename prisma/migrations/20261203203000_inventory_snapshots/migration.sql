-- A node's inventory history (SPEC D3): append-only snapshots, one per
-- distinct content in a row.

-- CreateTable
CREATE TABLE "inventory_snapshots" (
    "id" TEXT NOT NULL,
    "node_id" TEXT NOT NULL,
    "taken_at" TIMESTAMPTZ(3) NOT NULL,
    "last_reported_at" TIMESTAMPTZ(3) NOT NULL,
    "sections_sha256" TEXT NOT NULL,
    "changed_sections" TEXT[],
    "sections" JSONB NOT NULL,

    CONSTRAINT "inventory_snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "inventory_snapshots_node_id_id_idx" ON "inventory_snapshots"("node_id", "id");

-- AddForeignKey
ALTER TABLE "inventory_snapshots" ADD CONSTRAINT "inventory_snapshots_node_id_fkey" FOREIGN KEY ("node_id") REFERENCES "nodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
