-- SPEC H1: a pool may require more than one approver. The pool's count is
-- copied onto each request it defers (a rule may raise a request's own, H2),
-- and every approval is kept, one per principal per request, also when the
-- request is rejected or expires. Existing pools and requests read 1: exactly
-- the single-approver behaviour they had. (The schema diff also dropped and
-- re-created three partial indexes of join_requests unchanged, its known
-- misreading of their WHERE: left out.)

-- AlterTable
ALTER TABLE "join_requests" ADD COLUMN "approvals_required" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "pools" ADD COLUMN "approvals_required" INTEGER NOT NULL DEFAULT 1;

-- Prisma does not model CHECK constraints
ALTER TABLE "pools" ADD CONSTRAINT "pools_approvals_required_check" CHECK ("approvals_required" BETWEEN 1 AND 5);
ALTER TABLE "join_requests" ADD CONSTRAINT "join_requests_approvals_required_check" CHECK ("approvals_required" BETWEEN 1 AND 5);

-- CreateTable
CREATE TABLE "join_request_approvals" (
    "request_id" TEXT NOT NULL,
    "principal" TEXT NOT NULL,
    "approved_at" TIMESTAMPTZ(3) NOT NULL,
    "ttl_seconds" INTEGER NOT NULL,

    CONSTRAINT "join_request_approvals_pkey" PRIMARY KEY ("request_id","principal")
);

-- AddForeignKey
ALTER TABLE "join_request_approvals" ADD CONSTRAINT "join_request_approvals_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "join_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;
