import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolationsInBothSchemes } from "@/test/browser/axe";
import { createAcmePool, createPendingRequest, db, randomSuffix, userIdOf } from "@/test/browser/data";
import { expectNoSidewaysScroll } from "@/test/browser/layout";
import { screenshotPath } from "@/test/browser/queue";
import { E2E_ROLES } from "@/test/browser/roles";

// Issue #39 in the console: admin@acme.test (pool-admin on every acme pool)
// chooses what they hear per pool; owner@acme.test (tenant-admin) sets a
// pool's default and escalation. Each test makes its own pool, so other specs'
// pools (and their rows on this page) are left alone. The browser suite's
// server names no mail server, so the page says no mail is sent.

const OWNER_STATE = E2E_ROLES.find((role) => role.name === "owner")!.storageState;
const SIZES = [
  ["phone", { width: 390, height: 844 }],
  ["desktop", { width: 1366, height: 850 }],
] as const;

const rowOf = (page: Page, poolId: string) => page.locator(`[data-testid="pool-notification-setting"][data-pool-id="${poolId}"]`);

async function storedChoice(email: string, poolId: string): Promise<string | null> {
  const { rows } = await db().query(`SELECT mode FROM notification_preferences WHERE user_id = $1 AND pool_id = $2`, [
    await userIdOf(email),
    poolId,
  ]);
  return (rows[0]?.mode as string | undefined) ?? null;
}

for (const [size, viewport] of SIZES) {
  test(`${size}: a pool turned off stays off after a reload; the page says no mail is sent; axe clean`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const { poolId } = await createAcmePool(`notify-${size}`);
    await page.goto("/");
    await page.getByRole("link", { name: "Notifications" }).click();
    await expect(page).toHaveURL(/\/settings\/notifications$/);
    await expect(page.getByRole("heading", { level: 1, name: "Your notification settings" })).toBeVisible();
    await expect(page.getByTestId("mail-not-configured")).toContainText(
      "No mail server is configured: notifications are not sent. An operator sets BC_SMTP_URL",
    );
    await expect(page.getByTestId("notification-email")).toHaveText("admin@acme.test");

    const row = rowOf(page, poolId);
    await expect(row.getByRole("radio", { name: "Pool default (Immediately)" })).toBeChecked();
    await expect(row.getByRole("group")).toHaveAccessibleName(new RegExp(`^E2E notify-${size}`));
    await row.getByText("Off", { exact: true }).click();
    await expect(row.getByTestId("save-status")).toHaveText("Saved");
    expect(await storedChoice("admin@acme.test", poolId)).toBe("off");

    await page.reload();
    await expect(rowOf(page, poolId).getByRole("radio", { name: "Off" })).toBeChecked();
    await rowOf(page, poolId).scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll(page, `notification settings (${size})`);
    await page.screenshot({ path: screenshotPath(`notification-settings-${size}`), fullPage: false });
    await expectNoAxeViolationsInBothSchemes(page);
  });
}

test("by keyboard: arrow keys move the choice and each is saved; the pool default goes back to having no choice stored", async ({
  page,
}) => {
  const { poolId } = await createAcmePool("notify-keys");
  await page.goto("/settings/notifications");
  const row = rowOf(page, poolId);
  await row.getByRole("radio", { name: "Pool default (Immediately)" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(row.getByRole("radio", { name: "Immediately", exact: true })).toBeChecked();
  await expect(row.getByTestId("save-status")).toHaveText("Saved");
  await page.keyboard.press("ArrowRight");
  await expect(row.getByRole("radio", { name: "Digest every 15 min" })).toBeChecked();
  await expect.poll(() => storedChoice("admin@acme.test", poolId)).toBe("digest_15m");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(row.getByRole("radio", { name: "Pool default (Immediately)" })).toBeChecked();
  await expect(row.getByTestId("save-status")).toHaveText("Saved");
  await expect.poll(() => storedChoice("admin@acme.test", poolId)).toBeNull();
});

test("a tenant-admin's click on a pool control as soon as the page has loaded is not lost, however late the dialog's code arrives", async ({
  browser,
  baseURL,
}) => {
  const { poolId } = await createAcmePool("early-click");
  const ownerContext = await browser.newContext({ storageState: OWNER_STATE, baseURL });
  try {
    const owner = await ownerContext.newPage();
    // Script chunks asked for once the page has loaded (code loaded on
    // demand) arrive 1.5 s late, as on a slow link: a click before they are
    // in must still open the dialog when they are.
    let loaded = false;
    await owner.route("**/_next/static/chunks/**", async (route) => {
      if (loaded) await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    await owner.goto(`/pools/${poolId}`);
    loaded = true;
    await owner.getByRole("button", { name: "Notification defaults…" }).click();
    await expect(owner.getByRole("dialog", { name: `Notifications in ${poolId}` })).toBeVisible();
  } finally {
    await ownerContext.close();
  }
});

test("a tenant-admin sets a pool's default and escalation in the pool's heading; a decider without a choice then hears hourly", async ({
  page,
  browser,
  baseURL,
}) => {
  const { poolId } = await createAcmePool("notify-default");
  // a pool-admin gets no control for the pool's defaults
  await page.goto(`/pools/${poolId}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Notification defaults…" })).toHaveCount(0);

  const ownerContext = await browser.newContext({ storageState: OWNER_STATE, baseURL });
  try {
    const owner = await ownerContext.newPage();
    await owner.goto(`/pools/${poolId}`);
    await owner.getByRole("button", { name: "Notification defaults…" }).click();
    const dialog = owner.getByRole("dialog", { name: `Notifications in ${poolId}` });
    await dialog.getByLabel("Default for deciders").selectOption("hourly");
    await dialog.getByLabel("Escalate after (minutes)").fill("abc");
    await dialog.getByRole("button", { name: "Save" }).click();
    // refused naming the field, and nothing changed
    await expect(dialog.getByTestId("pool-notification-error")).toContainText("escalateAfterMinutes");
    await expect(dialog.getByLabel("Escalate after (minutes)")).toHaveAttribute("aria-invalid", "true");
    await expectNoAxeViolationsInBothSchemes(owner);
    await owner.setViewportSize({ width: 390, height: 844 });
    await owner.screenshot({ path: screenshotPath("pool-notification-defaults-phone") });
    await dialog.getByLabel("Escalate after (minutes)").fill("30");
    await dialog.getByLabel("Escalation addresses").fill("Oncall@Example.test\nlead@example.test, oncall@example.test");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
  } finally {
    await ownerContext.close();
  }
  const { rows } = await db().query(
    `SELECT notify_default AS "notifyDefault", escalate_after_minutes AS "minutes", escalation_emails AS "emails" FROM pools WHERE id = $1`,
    [poolId],
  );
  expect(rows[0]).toEqual({ notifyDefault: "hourly", minutes: 30, emails: ["oncall@example.test", "lead@example.test"] });

  await page.goto("/settings/notifications");
  await expect(rowOf(page, poolId).getByRole("radio", { name: "Pool default (Hourly digest)" })).toBeChecked();
});

/**
 * A delivery as the worker records it while no mail server is configured. The
 * browser suite's server runs no workers, so each test writes its own.
 */
async function recordDelivery(row: {
  kind: string;
  email: string;
  userId: string;
  poolId: string;
  requestId: string | null;
  status: string;
}) {
  const { rows } = await db().query(
    `INSERT INTO notification_deliveries (delivery_key, kind, tenant_id, pool_id, user_id, email, request_id, status, attempts,
       next_attempt_at, last_attempt_at, last_error, created_at)
     VALUES ($1, $2, 'acme', $3, $4, $5, $6, $7, 1, now(), now(), 'BC_SMTP_URL is not set', now()) RETURNING id::text AS id`,
    [`e2e:${randomSuffix()}`, row.kind, row.poolId, row.userId, row.email, row.requestId, row.status],
  );
  return rows[0].id as string;
}

for (const [size, viewport] of SIZES) {
  test(`${size}: "Mail to you" lists the user's own mails with their status, links to the request, and never another's`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    const { poolId } = await createAcmePool(`mail-log-${size}`);
    const request = await createPendingRequest({ poolId, label: `mail-log-${size}` });
    const mine = await recordDelivery({
      kind: "waiting",
      email: "admin@acme.test",
      userId: await userIdOf("admin@acme.test"),
      poolId,
      requestId: request.id,
      status: "not_configured",
    });
    const theirs = await recordDelivery({
      kind: "waiting",
      email: "owner@acme.test",
      userId: await userIdOf("owner@acme.test"),
      poolId,
      requestId: request.id,
      status: "not_configured",
    });
    await page.goto("/settings/notifications");
    const log = page.getByRole("region", { name: "Mail to you" });
    const row = log.locator(`[data-testid="mail-delivery"][data-delivery-id="${mine}"]`);
    await expect(row).toContainText("A request waits");
    await expect(row.getByTestId("mail-delivery-status")).toHaveText("not sent (no mail server)");
    await expect(log.locator(`[data-delivery-id="${theirs}"]`)).toHaveCount(0);
    // the operator's error text stays with the operator
    await expect(log).not.toContainText("BC_SMTP_URL is not set");
    await row.scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll(page, `mail log (${size})`);
    await page.screenshot({ path: screenshotPath(`notification-mail-log-${size}`), fullPage: false });
    await expectNoAxeViolationsInBothSchemes(page);
    await row.getByRole("link", { name: request.id }).click();
    await expect(page).toHaveURL(new RegExp(`/pools/${poolId}/requests/${request.id}$`));
  });
}
