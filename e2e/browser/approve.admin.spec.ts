import { expect, test } from "@playwright/test";
import { createPendingRequest, storedRequest, userIdOf } from "@/test/browser/data";
import { openQueue, rowOf } from "@/test/browser/queue";

// The approve dialog: TTL presets or a custom amount, judged by the server's
// own schema before anything is sent.

test("approving with a custom TTL moves the request to approved, with that expiry", async ({ page }) => {
  const request = await createPendingRequest({ poolId: "gpu-b", label: "approve" });
  await openQueue(page, "gpu-b");
  await rowOf(page, request.hostname)
    .getByRole("button", { name: `Approve ${request.hostname}` })
    .click();
  const dialog = page.getByRole("dialog", { name: `Approve ${request.hostname}` });
  await expect(dialog.getByRole("radio", { name: "1 h" })).toBeChecked(); // the default
  await dialog.getByRole("radio", { name: "Custom" }).check();
  await dialog.getByLabel("Custom time to live amount").fill("90");
  await dialog.getByLabel("Custom time to live unit").selectOption("minutes");
  await expect(dialog.getByTestId("expiry-preview")).toContainText("(in 1 h 30 min)");
  await dialog.getByLabel("Reason (optional)").fill("racked by ops, ticket E2E-1");
  await expect(dialog.getByText("27 / 256")).toBeVisible();

  const approvedAt = Date.now();
  await dialog.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Approved ${request.hostname}`)).toBeVisible(); // toast
  await expect(rowOf(page, request.hostname)).toHaveCount(0); // left pending

  const stored = await storedRequest(request.id);
  expect(stored.state).toBe("approved");
  expect(stored.poolId).toBe("gpu-b");
  expect(stored.reason).toBe("racked by ops, ticket E2E-1");
  expect(stored.decidedBy).toBe(await userIdOf("admin@acme.test"));
  expect(stored.expiresAt.getTime() - stored.decidedAt!.getTime()).toBe(90 * 60_000);
  expect(Math.abs(stored.expiresAt.getTime() - (approvedAt + 90 * 60_000))).toBeLessThan(15_000);

  await page.getByRole("radio", { name: "approved", exact: true }).check();
  const row = rowOf(page, request.hostname);
  await expect(row.locator(".badge-approved")).toHaveText("approved");
  await expect(row.locator("time[datetime]").last()).toHaveAttribute("datetime", stored.expiresAt.toISOString());
  await expect(row.locator("time[datetime]").last()).toHaveText(/^01:(29|30):\d{2}$/);
});

test("a bad custom TTL or reason shows an inline error and sends no request", async ({ page }) => {
  const request = await createPendingRequest({ poolId: "gpu-b", label: "bad-ttl" });
  const sent: string[] = [];
  page.on("request", (outgoing) => {
    if (outgoing.url().includes("/api/compute/joinRequests/approve")) sent.push(outgoing.url());
  });
  await openQueue(page, "gpu-b");
  await rowOf(page, request.hostname)
    .getByRole("button", { name: `Approve ${request.hostname}` })
    .click();
  const dialog = page.getByRole("dialog", { name: `Approve ${request.hostname}` });
  await dialog.getByRole("radio", { name: "Custom" }).check();
  const amount = dialog.getByLabel("Custom time to live amount");
  const unit = dialog.getByLabel("Custom time to live unit");
  const submit = dialog.getByRole("button", { name: "Approve", exact: true });

  for (const [value, unitName] of [
    ["30", "seconds"],
    ["25", "hours"],
    ["abc", "minutes"],
    ["60.5", "seconds"],
    ["", "minutes"],
  ] as const) {
    await amount.fill(value);
    await unit.selectOption(unitName);
    await submit.click();
    await expect(dialog.getByTestId("ttl-error")).toHaveText(
      "Time to live must be an integer from 60 to 86400 seconds (1 minute to 24 hours).",
    );
    await expect(amount).toHaveAttribute("aria-invalid", "true");
    await expect(dialog).toBeVisible();
  }
  // The edges are fine: 1 minute and 24 hours.
  await amount.fill("24");
  await unit.selectOption("hours");
  await expect(dialog.getByTestId("ttl-error")).toHaveCount(0);

  // A reason over 256 code points (emoji are one character each, two UTF-16 units).
  await dialog.getByLabel("Reason (optional)").fill("🙂".repeat(257));
  await expect(dialog.getByText("257 / 256")).toBeVisible();
  await submit.click();
  await expect(dialog.getByText("Reason must be at most 256 characters")).toBeVisible();

  await page.waitForTimeout(500);
  expect(sent).toEqual([]);
  expect((await storedRequest(request.id)).state).toBe("pending");
});

test("the dialog cannot be closed while its approval is pending", async ({ page }) => {
  const request = await createPendingRequest({ poolId: "gpu-b", label: "slow" });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/compute/joinRequests/approve", async (route) => {
    await released;
    await route.continue();
  });
  await openQueue(page, "gpu-b");
  await rowOf(page, request.hostname)
    .getByRole("button", { name: `Approve ${request.hostname}` })
    .click();
  const dialog = page.getByRole("dialog", { name: `Approve ${request.hostname}` });
  await dialog.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(dialog.getByRole("button", { name: "Approving…" })).toBeDisabled();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeDisabled();
  await page.keyboard.press("Escape");
  await page.mouse.click(5, 5); // the overlay
  await expect(dialog).toBeVisible();
  release();
  await expect(dialog).toBeHidden();
  expect((await storedRequest(request.id)).state).toBe("approved");
});

test("the dialog is keyboard-operable: focus stays inside, Esc closes it when idle", async ({ page }) => {
  const request = await createPendingRequest({ poolId: "gpu-b", label: "keyboard" });
  await openQueue(page, "gpu-b");
  await rowOf(page, request.hostname)
    .getByRole("button", { name: `Approve ${request.hostname}` })
    .focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: `Approve ${request.hostname}` });
  await expect(dialog).toBeVisible();
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  expect((await storedRequest(request.id)).state).toBe("pending");
});
