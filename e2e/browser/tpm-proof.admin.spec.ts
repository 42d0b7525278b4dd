import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "@/test/browser/axe";
import { createAcmePool, createPendingRequest, storedRequest } from "@/test/browser/data";
import { openQueue, rowOf } from "@/test/browser/queue";

// SPEC G2 in the console: a pool that requires TPM cannot approve a request
// whose endorsement key was not proven, and says so in words (not only by a
// missing button); the request page says whether its EK was proven.
const EK = "ab".repeat(32);
const REQUIREMENT = /requires a proven TPM/;

test("in a TPM pool's queue, an unproven request's row says why Approve is unavailable; Reject stays", async ({ page }) => {
  const { poolId, siteId } = await createAcmePool("tpm", { requiresTpm: true });
  const unclaimed = await createPendingRequest({ poolId: null, siteId, label: "no-tpm" });
  const presented = await createPendingRequest({ poolId: null, siteId, label: "unproven", tpmEkSha256: EK });
  const proven = await createPendingRequest({ poolId, siteId, label: "proven", tpmEkSha256: EK, tpmEkProven: true });
  await openQueue(page, poolId);

  for (const [request, why] of [
    [unclaimed, "this request presented no TPM"],
    [presented, "this request's endorsement key was not proven by credential activation"],
  ] as const) {
    const row = rowOf(page, request.hostname);
    await expect(row.getByRole("button", { name: `Approve ${request.hostname}` })).toHaveCount(0);
    await expect(row.getByTestId("approve-unavailable")).toHaveText(
      `Approve is unavailable: pool ${poolId} requires a proven TPM: ${why}.`,
    );
    await expect(row.getByRole("button", { name: `Reject ${request.hostname}` })).toBeVisible();
  }
  await expect(rowOf(page, presented.hostname)).toContainText("not proven");
  await expect(rowOf(page, proven.hostname).getByRole("button", { name: `Approve ${proven.hostname}` })).toBeVisible();
  await expect(rowOf(page, proven.hostname).getByTestId("approve-unavailable")).toHaveCount(0);
  await expectNoAxeViolations(page);

  // On a phone the rows are cards: the reason is still there, in words.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(rowOf(page, unclaimed.hostname).getByTestId("approve-unavailable")).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 720 });

  // The keyboard's `a` opens no approval for it either.
  await rowOf(page, unclaimed.hostname).focus();
  await page.keyboard.press("a");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // Bulk approve skips it, saying why, and approves the rest.
  for (const request of [unclaimed, proven])
    await rowOf(page, request.hostname)
      .getByRole("checkbox", { name: `Select ${request.hostname}` })
      .check();
  await page.getByRole("button", { name: "Approve selected" }).click();
  const dialog = page.getByRole("dialog", { name: "Approve 1 request" });
  await expect(dialog.getByTestId("bulk-skipped")).toContainText(unclaimed.hostname);
  await expect(dialog.getByTestId("bulk-skipped")).toContainText(REQUIREMENT);
  await dialog.getByRole("button", { name: "Approve 1 request" }).click();
  await expect(dialog.getByTestId("bulk-result")).toHaveCount(1);
  expect(await storedRequest(proven.id)).toMatchObject({ state: "approved" });
  expect(await storedRequest(unclaimed.id)).toMatchObject({ state: "pending", poolId: null });
});

test("the request page says whether the EK was proven, and from gpu-a why an unproven one cannot be approved", async ({ page }) => {
  const unproven = await createPendingRequest({ poolId: null, siteId: "fra1", label: "site-unproven", tpmEkSha256: EK });
  await page.goto(`/pools/gpu-a/requests/${unproven.id}`);
  const detail = page.getByTestId("request-detail");
  await expect(detail.getByTestId("tpm-proof")).toHaveText("Endorsement key presented but not proven");
  await expect(detail.getByRole("button", { name: "Approve…" })).toHaveCount(0);
  await expect(detail.getByTestId("approve-unavailable")).toContainText(
    "pool gpu-a requires a proven TPM: this request's endorsement key was not proven by credential activation",
  );
  await expectNoAxeViolations(page);
  await detail.getByRole("button", { name: "Reject…" }).click();
  const dialog = page.getByRole("dialog", { name: `Reject ${unproven.hostname}` });
  await dialog.getByRole("button", { name: "Reject", exact: true }).click();
  await expect(dialog).toBeHidden();
  expect(await storedRequest(unproven.id)).toMatchObject({ state: "rejected", poolId: "gpu-a" });

  const none = await createPendingRequest({ poolId: "gpu-b", label: "no-tpm" });
  await page.goto(`/pools/gpu-b/requests/${none.id}`);
  await expect(page.getByTestId("tpm-proof")).toHaveText("No TPM");
  await expect(page.getByRole("button", { name: "Approve…" })).toBeVisible(); // gpu-b does not require TPM

  const proven = await createPendingRequest({ poolId: "gpu-b", label: "proven", tpmEkSha256: EK, tpmEkProven: true });
  await page.goto(`/pools/gpu-b/requests/${proven.id}`);
  await expect(page.getByTestId("tpm-proof")).toHaveText("Endorsement key proven by TPM credential activation");
});
