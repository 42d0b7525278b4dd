import "server-only";
import type { Tx } from "../db/client";
import { digestKey } from "@/lib/notifications/delivery-key";
import { digestWindow, type DigestMode } from "@/lib/notifications/digest-window";

/**
 * Puts a request in the user's digest of the window `now` falls in: the
 * window's delivery is made if it is not there yet (due at the window's end),
 * and the item added while that digest is still unsent — the FOR SHARE lock
 * makes a worker claiming it wait for this transaction, or this insert see
 * the claim and add nothing. Returns false when the request could not be
 * added now (already in one of the user's digests is true: nothing to add);
 * the caller tries again in a later pass, in the next window.
 */
export async function addToDigest(
  tx: Tx,
  input: { tenantId: string; userId: string; email: string; mode: DigestMode; requestId: string; now: Date },
): Promise<boolean> {
  const { userId, requestId, now } = input;
  const [already] = await tx.$queryRaw<{ one: number }[]>`
    SELECT 1 AS one FROM notification_digest_items WHERE user_id = ${userId} AND request_id = ${requestId}`;
  if (already) return true;
  const window = digestWindow(input.mode, now);
  const key = digestKey(userId, input.mode, window.start);
  await tx.$executeRaw`
    INSERT INTO notification_deliveries (delivery_key, kind, tenant_id, user_id, email, next_attempt_at, created_at)
    VALUES (${key}, 'digest', ${input.tenantId}, ${userId}, ${input.email}, ${window.end}, ${now})
    ON CONFLICT (delivery_key) DO NOTHING`;
  const added = await tx.$executeRaw`
    INSERT INTO notification_digest_items (user_id, request_id, delivery_id)
    SELECT ${userId}, ${requestId}, d.id FROM (
      SELECT id FROM notification_deliveries
      WHERE delivery_key = ${key} AND status = 'pending' AND attempts = 0
      FOR SHARE) d
    ON CONFLICT (user_id, request_id) DO NOTHING`;
  return added > 0;
}
