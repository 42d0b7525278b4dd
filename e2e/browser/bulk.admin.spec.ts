import { expect, test } from "@playwright/test";
import { createPendingRequest, storedRequest } from "@/test/browser/data";
import { openQueue, rowOf } from "@/test/browser/queue";
import { callAsService } from "@/test/browser/service-api";

test("bulk approval of 3 rows with one TTL and reason reports each row's result", async ({ page }) => {
  const requests = [];
  for (let i = 0; i < 3; i++) requests.push(await createPendingRequest({ poolId: "gpu-b", label: `bulk${i}` }));
  await openQueue(page, "gpu-b");
  for (const request of requests)
    await rowOf(page, request.hostname)
      .getByRole("checkbox", { name: `Select ${request.hostname}` })
      .check();
  await expect(page.getByTestId("bulk-bar")).toContainText("3 selected");
  await page.getByRole("button", { name: "Approve selected" }).click();

  const dialog = page.getByRole("dialog", { name: "Approve 3 requests" });
  for (const request of requests) await expect(dialog.getByText(request.hostname)).toBeVisible();
  await dialog.getByRole("radio", { name: "4 h", exact: true }).check();
  await dialog.getByLabel("Reason (optional)").fill("batch E2E-3");

  // While the dialog is open, someone else rejects the second one.
  const [, second] = requests;
  expect(
    (await callAsService(page.request, "joinRequests/reject", { tenantId: "acme", poolId: "gpu-b", requestId: second!.id })).status,
  ).toBe(200);

  const startedAt = Date.now();
  await dialog.getByRole("button", { name: "Approve 3 requests" }).click();
  const results = dialog.getByTestId("bulk-result");
  await expect(results).toHaveCount(3);
  await expect(dialog).toContainText("Approved 2 of 3 requests · 1 failed.");
  for (const [index, request] of requests.entries()) {
    const result = results.filter({ hasText: request.hostname });
    await expect(result).toContainText(index === 1 ? "INVALID_STATE" : "ok");
  }
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("bulk-bar")).toHaveCount(0);

  for (const [index, request] of requests.entries()) {
    const stored = await storedRequest(request.id);
    if (index === 1) {
      expect(stored.state).toBe("rejected");
      continue;
    }
    expect(stored).toMatchObject({ state: "approved", reason: "batch E2E-3" });
    expect(stored.expiresAt.getTime() - stored.decidedAt!.getTime()).toBe(4 * 3600_000);
    expect(Math.abs(stored.expiresAt.getTime() - (startedAt + 4 * 3600_000))).toBeLessThan(15_000);
    await expect(rowOf(page, request.hostname)).toHaveCount(0);
  }
});

test("bulk rejection of 2 rows", async ({ page }) => {
  const requests = [
    await createPendingRequest({ poolId: "gpu-b", label: "bulkrej" }),
    await createPendingRequest({ poolId: "gpu-b", label: "bulkrej" }),
  ];
  await openQueue(page, "gpu-b");
  for (const request of requests) await rowOf(page, request.hostname).getByRole("checkbox").check();
  await page.getByRole("button", { name: "Reject selected" }).click();
  const dialog = page.getByRole("dialog", { name: "Reject 2 requests" });
  await expect(dialog.getByRole("radio")).toHaveCount(0); // no TTL for a rejection
  await dialog.getByLabel("Reason (optional)").fill("decommissioned");
  await dialog.getByRole("button", { name: "Reject 2 requests" }).click();
  await expect(dialog).toContainText("2 of 2 succeeded.");
  for (const request of requests) expect(await storedRequest(request.id)).toMatchObject({ state: "rejected", reason: "decommissioned" });
});
