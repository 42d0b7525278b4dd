-- CreateEnum
CREATE TYPE "notification_kind" AS ENUM ('waiting', 'outcome', 'digest', 'escalation');

-- CreateEnum
CREATE TYPE "notification_delivery_status" AS ENUM ('pending', 'sent', 'dead', 'not_configured');

-- CreateTable
CREATE TABLE "notification_deliveries" (
    "id" BIGSERIAL NOT NULL,
    "delivery_key" TEXT NOT NULL,
    "kind" "notification_kind" NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "pool_id" TEXT,
    "user_id" TEXT,
    "email" TEXT NOT NULL,
    "request_id" TEXT,
    "event_id" TEXT,
    "status" "notification_delivery_status" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "last_attempt_at" TIMESTAMPTZ(3),
    "sent_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "notification_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_attempts" (
    "id" BIGSERIAL NOT NULL,
    "delivery_id" BIGINT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "response" TEXT,
    "error" TEXT,

    CONSTRAINT "notification_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_digest_items" (
    "user_id" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "delivery_id" BIGINT NOT NULL,

    CONSTRAINT "notification_digest_items_pkey" PRIMARY KEY ("user_id","request_id")
);

-- CreateTable
CREATE TABLE "notification_cursors" (
    "tenant_id" TEXT NOT NULL,
    "scan_after" TEXT NOT NULL,

    CONSTRAINT "notification_cursors_pkey" PRIMARY KEY ("tenant_id")
);

-- CreateTable
CREATE TABLE "notification_scanned_events" (
    "event_id" TEXT NOT NULL,
    "scanned_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "notification_scanned_events_pkey" PRIMARY KEY ("event_id")
);

-- CreateTable
CREATE TABLE "notification_escalations" (
    "request_id" TEXT NOT NULL,
    "escalated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "notification_escalations_pkey" PRIMARY KEY ("request_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "notification_deliveries_delivery_key_key" ON "notification_deliveries"("delivery_key");

-- CreateIndex
CREATE INDEX "notification_deliveries_due_idx" ON "notification_deliveries"("next_attempt_at") WHERE (status = 'pending');

-- CreateIndex
CREATE INDEX "notification_deliveries_tenant_id_id_idx" ON "notification_deliveries"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "notification_deliveries_user_id_id_idx" ON "notification_deliveries"("user_id", "id");

-- CreateIndex
CREATE INDEX "notification_attempts_delivery_id_at_idx" ON "notification_attempts"("delivery_id", "at");

-- CreateIndex
CREATE INDEX "notification_digest_items_delivery_id_idx" ON "notification_digest_items"("delivery_id");

-- AddForeignKey
ALTER TABLE "notification_attempts" ADD CONSTRAINT "notification_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "notification_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_digest_items" ADD CONSTRAINT "notification_digest_items_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "notification_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
