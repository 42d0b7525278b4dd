import "server-only";
import type { Db } from "../db/client";
import { connectionTarget } from "../db/connection-target";
import { env } from "../env";
import { log } from "../log";
import type { BackgroundWorker } from "../workers/background-worker";
import { startNotificationWorker } from "./notification-worker";
import { smtpMailSender } from "./send-mail";
import { redactedSmtpUrl } from "./smtp-connection-url";

/**
 * The notification worker as the app and `npm run worker` run it, on
 * BC_SMTP_URL. Without it nothing is sent: each mail is recorded as
 * not_configured (never retried), and in development on the embedded
 * database printed on stdout instead, so a newcomer sees what would go out.
 */
export function startMailNotifications(input: { db: Db }): BackgroundWorker {
  const { BC_SMTP_URL, BC_SMTP_FROM } = env();
  if (!BC_SMTP_URL) {
    const printUnsent = process.env.NODE_ENV === "development" && connectionTarget().kind === "pglite";
    log.info(
      printUnsent
        ? "mail notifications: BC_SMTP_URL is not set; mails are printed on stdout, not sent"
        : "mail notifications: BC_SMTP_URL is not set; no mail is sent",
    );
    return startNotificationWorker({ db: input.db, send: null, printUnsent });
  }
  const sender = smtpMailSender({ url: BC_SMTP_URL, from: BC_SMTP_FROM, timeoutMs: 30_000 });
  log.info("mail notifications: sending through SMTP", { server: redactedSmtpUrl(BC_SMTP_URL) });
  const worker = startNotificationWorker({ db: input.db, send: sender.send });
  return {
    async stop() {
      await worker.stop();
      sender.close();
    },
  };
}
