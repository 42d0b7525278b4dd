import { expect, test } from "@playwright/test";
import type { ChildProcess } from "node:child_process";
import { DEMO_PASSWORD } from "@/server/seed/demo-data";
import { createAcmePool, createPendingRequest, db } from "@/test/browser/data";
import { startNotificationWorkerProcess } from "@/test/harness/notification-worker-main";
import { startSmtpServer, type TestSmtpServer } from "@/test/harness/smtp-server";
import { screenshotPath } from "@/test/browser/queue";

// Issue #39: the link in a real mail — sent by the notification worker
// through a loopback SMTP server — opened in Chromium with no session, signs
// in and lands on the request it is about.
test.use({ storageState: { cookies: [], origins: [] } });

let smtp: TestSmtpServer;
let worker: ChildProcess | undefined;
test.beforeAll(async ({ baseURL }) => {
  smtp = await startSmtpServer();
  worker = startNotificationWorkerProcess({
    BC_SMTP_URL: smtp.url,
    BC_SMTP_FROM: "Better Compute <bc@mail.test>",
    NEXTAUTH_URL: baseURL!,
    BC_NOTIFY_TENANT: "acme",
  });
});
test.afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const exited = new Promise((resolve) => worker!.once("exit", resolve));
    worker.kill("SIGTERM");
    await exited;
  }
  await smtp?.close();
});

test("the request link in a received mail signs in and lands on that request", async ({ page }) => {
  const { poolId } = await createAcmePool("mail");
  const request = await createPendingRequest({ poolId, label: "mail" });
  // its pool has no approval rules: the join marks them run at once (createPendingRequest leaves that to the rules sweep)
  await db().query("UPDATE join_requests SET rules_evaluated_at = created_at WHERE id = $1", [request.id]);
  // admin@acme.test is pool-admin on every acme pool: it hears at once (the default)
  await expect
    .poll(() => smtp.to("admin@acme.test").filter((mail) => mail.text.includes(request.hostname)).length, { timeout: 30_000 })
    .toBe(1);
  const mail = smtp.to("admin@acme.test").find((mail) => mail.text.includes(request.hostname))!;
  const link = /Decide: (\S+)/.exec(mail.text)![1]!;
  expect(new URL(link).pathname).toBe(`/pools/${poolId}/requests/${request.id}`);

  // the HTML mail as a mail client shows it (a copy is docs/screenshot-notification-mail.png)
  await page.setContent(mail.html);
  await expect(page.getByRole("link", { name: "Open the request" })).toHaveAttribute("href", link);
  await page.screenshot({ path: screenshotPath("notification-mail"), fullPage: true });

  await page.goto(link);
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  await page.getByLabel("Email").fill("admin@acme.test");
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(new URL(link).pathname);
  await expect(page.getByText(request.hostname).first()).toBeVisible();
});
