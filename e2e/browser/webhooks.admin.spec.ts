import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import pg from "pg";

// The read-only webhooks page: acme's subscriptions with their health, never a secret.
test("lists the tenant's webhooks with format, status, last attempt and failures, and no secret", async ({ page }) => {
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  const id = `whsub_e2e${randomBytes(6).toString("hex")}`;
  const url = `https://hooks.example.test/${id}`;
  const failingSince = new Date(Date.now() - 3_600_000);
  // The secret column holds ciphertext the page never reads; these bytes stand in for it.
  const secret = randomBytes(60);
  await db.query(
    `INSERT INTO webhook_subscriptions (id, tenant_id, url, format, event_types, secret_encrypted, scan_after, consecutive_failures,
       failing_since, last_attempt_at, last_error, created_at)
     VALUES ($1, 'acme', $2, 'slack', $3, $4, 'evt_', 7, $5, now(), 'HTTP 503', now())`,
    [id, url, ["security.join-request.approved"], secret, failingSince],
  );
  try {
    await page.goto("/");
    await page.getByRole("link", { name: "Webhooks" }).click();
    await expect(page).toHaveURL("/webhooks");
    const row = page.getByTestId("webhook-row").filter({ hasText: url });
    await expect(row).toBeVisible();
    await expect(row.getByTestId("webhook-health")).toContainText("failing since");
    await expect(row.getByTestId("webhook-failures")).toHaveText("7");
    await expect(row.getByTestId("webhook-format")).toHaveText("Slack");
    await expect(row).toContainText("HTTP 503");
    await expect(row).toContainText("security.join-request.approved");
    const html = await page.content();
    expect(html).not.toContain(secret.toString("base64"));
    expect(html).not.toContain("whsec_");
  } finally {
    await db.query("DELETE FROM webhook_subscriptions WHERE id = $1", [id]);
    await db.end();
  }
});
