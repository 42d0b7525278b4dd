-- CreateEnum
CREATE TYPE "notification_mode" AS ENUM ('immediate', 'digest_15m', 'hourly', 'off');

-- CreateEnum
CREATE TYPE "webhook_format" AS ENUM ('standard', 'slack', 'teams', 'google_chat', 'mattermost');

-- AlterTable
ALTER TABLE "pools" ADD COLUMN     "escalate_after_minutes" INTEGER,
ADD COLUMN     "escalation_emails" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "notify_default" "notification_mode" NOT NULL DEFAULT 'immediate';

-- An escalation waits at least a minute and at most a week (a pending
-- request lives far less than that).
ALTER TABLE "pools" ADD CONSTRAINT "pools_escalate_after_minutes_check"
  CHECK ("escalate_after_minutes" IS NULL OR "escalate_after_minutes" BETWEEN 1 AND 10080);

-- AlterTable
ALTER TABLE "webhook_subscriptions" ADD COLUMN     "format" "webhook_format" NOT NULL DEFAULT 'standard';

-- CreateTable
CREATE TABLE "notification_preferences" (
    "user_id" TEXT NOT NULL,
    "pool_id" TEXT NOT NULL,
    "mode" "notification_mode" NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "notification_preferences_pkey" PRIMARY KEY ("user_id","pool_id")
);

-- CreateIndex
CREATE INDEX "notification_preferences_pool_id_idx" ON "notification_preferences"("pool_id");

-- AddForeignKey
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_pool_id_fkey" FOREIGN KEY ("pool_id") REFERENCES "pools"("id") ON DELETE CASCADE ON UPDATE CASCADE;
