-- Rate limits shared by every instance (issue 14 item 5): failed sign-ins per
-- account and per address, joins per credential (rate-limiter-flexible's
-- Prisma store: key, consumed points, end of the window).

-- CreateTable
CREATE TABLE "rate_limits" (
    "key" TEXT NOT NULL,
    "points" INTEGER NOT NULL,
    "expire" TIMESTAMPTZ(3),

    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "rate_limits_expire_idx" ON "rate_limits"("expire");
