import { expect, test } from "@playwright/test";
import { createPendingRequest } from "@/test/browser/data";
import { openQueue, rowOf } from "@/test/browser/queue";

// A pool viewer reads every acme queue and decides nothing.

test("a viewer sees the queue without any action controls", async ({ page }) => {
  const request = await createPendingRequest({ poolId: "gpu-b", label: "viewer" });
  await openQueue(page, "gpu-b");
  await expect(rowOf(page, request.hostname)).toBeVisible();
  await expect(page.getByText("read only: you are a pool viewer")).toBeVisible();
  await expect(page.getByRole("button", { name: /^(Approve|Reject|Withdraw)/ })).toHaveCount(0);
  // no selection for a bulk decision (the queue's filters are checkboxes too, and stay)
  await expect(page.getByRole("checkbox", { name: /^Select/ })).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: "Decided by a rule" })).toBeVisible();
  await openQueue(page, "gpu-b", "approved");
  await expect(rowOf(page, "node-008.fra1.acme.test")).toBeVisible();
  await expect(page.getByRole("button", { name: /Withdraw/ })).toHaveCount(0);

  await page.goto(`/pools/gpu-b/requests/${request.id}`);
  await expect(page.getByTestId("request-detail")).toBeVisible();
  await expect(page.getByRole("button", { name: /Approve|Reject/ })).toHaveCount(0);
});

test("the server refuses a viewer's decision too", async ({ page, baseURL }) => {
  const request = await createPendingRequest({ poolId: "gpu-b", label: "viewer-api" });
  const response = await page.request.post("/api/compute/joinRequests/approve", {
    data: { tenantId: "acme", poolId: "gpu-b", requestId: request.id },
    headers: { origin: new URL(baseURL!).origin },
  });
  expect(response.status()).toBe(403);
  expect((await response.json()).error.code).toBe("PERMISSION_DENIED");
});

test("the overview marks the viewer's pools read-only", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("pool-gpu-a").getByText("viewer")).toBeVisible();
  await expect(page.getByTestId("pool-cpu-x")).toBeVisible();
});
