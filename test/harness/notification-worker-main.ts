// The mail notification worker alone, as a process, for browser tests: on
// DATABASE_URL, sending to BC_SMTP_URL, limited to BC_NOTIFY_TENANT (the
// browser suite's app server runs no workers, and retention must not run on
// its database). Started by startNotificationWorkerProcess below; SIGTERM stops it.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Starts this file as a child process with `env` added. */
export function startNotificationWorkerProcess(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", fileURLToPath(import.meta.url)], {
    env: { ...process.env, ...env, BC_NOTIFY_WORKER_MAIN: "1" },
    stdio: ["ignore", "inherit", "inherit"],
  });
}

async function main(): Promise<void> {
  const { getDb } = await import("@/server/db/client");
  const { env } = await import("@/server/env");
  const { startNotificationWorker } = await import("@/server/notifications/notification-worker");
  const { smtpMailSender } = await import("@/server/notifications/send-mail");
  const { BC_SMTP_URL, BC_SMTP_FROM } = env();
  if (!BC_SMTP_URL) throw new Error("BC_SMTP_URL is not set");
  const sender = smtpMailSender({ url: BC_SMTP_URL, from: BC_SMTP_FROM, timeoutMs: 10_000 });
  const worker = startNotificationWorker({ db: await getDb(), send: sender.send, tenantId: process.env.BC_NOTIFY_TENANT, pollMs: 100 });
  process.once("SIGTERM", () => {
    void worker.stop().then(() => {
      sender.close();
      process.exit(0);
    });
  });
}

if (process.env.BC_NOTIFY_WORKER_MAIN === "1") await main();
