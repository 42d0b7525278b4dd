-- SPEC H2: approval rules. A pool's ordered rules (CEL expression, action,
-- mode, hourly cap), the per-hour approval counts of approve rules, and on each
-- join request when its rules ran. (The schema diff also dropped and re-created
-- three partial indexes of join_requests unchanged, its known misreading of
-- their WHERE: left out. The sweep's index is built concurrently by the next
-- migration.)

-- Requests deferred before rules existed read as evaluated (the epoch: before
-- any rule), so the sweep never runs today's rules on yesterday's queue. A
-- constant default is stored in the catalog, not written to each row (no
-- table rewrite on a big join_requests); dropping it leaves new rows NULL.
ALTER TABLE "join_requests" ADD COLUMN "rules_evaluated_at" TIMESTAMPTZ(3) DEFAULT '1970-01-01T00:00:00Z';
ALTER TABLE "join_requests" ALTER COLUMN "rules_evaluated_at" DROP DEFAULT;

-- CreateTable
CREATE TABLE "approval_rules" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "pool_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "expression" TEXT NOT NULL,
    "action" JSONB NOT NULL,
    "mode" TEXT NOT NULL,
    "max_per_hour" INTEGER,
    "version" INTEGER NOT NULL DEFAULT 1,
    "updated_by" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "approval_rules_pkey" PRIMARY KEY ("id")
);

-- Prisma does not model CHECK constraints; the API validates the same bounds first (lib/approval-rules/rule-schemas.ts)
ALTER TABLE "approval_rules" ADD CONSTRAINT "approval_rules_expression_size_check" CHECK (octet_length("expression") BETWEEN 1 AND 4096);
ALTER TABLE "approval_rules" ADD CONSTRAINT "approval_rules_mode_check" CHECK ("mode" IN ('enforce', 'shadow'));
ALTER TABLE "approval_rules" ADD CONSTRAINT "approval_rules_max_per_hour_check" CHECK ("max_per_hour" BETWEEN 1 AND 10000);
-- an approve rule always has its cap
ALTER TABLE "approval_rules" ADD CONSTRAINT "approval_rules_approve_capped_check" CHECK (NOT ("action" ? 'approve') OR "max_per_hour" IS NOT NULL);

-- CreateTable
CREATE TABLE "approval_rule_hours" (
    "rule_id" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "approvals" INTEGER NOT NULL,

    CONSTRAINT "approval_rule_hours_pkey" PRIMARY KEY ("rule_id","hour")
);

-- CreateIndex
CREATE INDEX "approval_rules_pool_id_position_id_idx" ON "approval_rules"("pool_id", "position", "id");

-- AddForeignKey
ALTER TABLE "approval_rules" ADD CONSTRAINT "approval_rules_pool_id_fkey" FOREIGN KEY ("pool_id") REFERENCES "pools"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
