import { randomBytes } from "node:crypto";
import { getDb } from "@/server/db/client";
import { newId } from "@/lib/ids";
import type { NotificationMode } from "@/server/db/generated/client";
import type { Role } from "@/server/auth/roles";
import { startNotificationWorker, type NotificationWorkerOptions } from "@/server/notifications/notification-worker";
import { smtpMailSender } from "@/server/notifications/send-mail";
import type { BackgroundWorker } from "@/server/workers/background-worker";
import type { World } from "./world";

// Mail notification tests share the test database: each makes its own tenant
// (createWorld), its own users, and runs notification workers limited to it.

/** Retries in milliseconds, not minutes. */
export const FAST_MAIL_POLICY = { baseMs: 20, capMs: 200, giveUpAfterMs: 60_000, maxAttempts: 100 };

/** A user of the world's tenant with one grant (poolId null: tenant-wide), and their mode for `modes`' pools. */
export async function addUser(
  world: World,
  grant: { role: Role; poolId: string | null },
  options: { modes?: Record<string, NotificationMode>; disabled?: boolean } = {},
): Promise<{ id: string; email: string }> {
  const db = await getDb();
  const id = newId("usr");
  const email = `${grant.role}-${randomBytes(4).toString("hex")}@mail.test`;
  await db.user.create({
    data: {
      id,
      email,
      name: email,
      disabledAt: options.disabled ? new Date() : null,
      grants: { create: [{ id: newId("grant"), tenantId: world.tenantId, ...grant }] },
    },
  });
  for (const [poolId, mode] of Object.entries(options.modes ?? {})) {
    await db.notificationPreference.create({ data: { userId: id, poolId, mode, updatedAt: new Date() } });
  }
  return { id, email };
}

/** A clock the test moves: real time plus `offsetMs`. */
export function movableClock() {
  const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
  return clock;
}

/** A notification worker on this world's tenant, sending to `smtpUrl`, polling fast. */
export async function startMailWorker(
  world: World,
  smtpUrl: string,
  options: Partial<NotificationWorkerOptions> = {},
): Promise<BackgroundWorker> {
  const sender = smtpMailSender({ url: smtpUrl, from: "Better Compute <bc@mail.test>", timeoutMs: 10_000 });
  const worker = startNotificationWorker({
    db: await getDb(),
    send: sender.send,
    tenantId: world.tenantId,
    pollMs: 25,
    policy: FAST_MAIL_POLICY,
    ...options,
  });
  return {
    async stop() {
      await worker.stop();
      sender.close();
    },
  };
}
