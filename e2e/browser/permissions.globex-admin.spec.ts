import { expect, test } from "@playwright/test";
import { nodeIdOf } from "@/test/browser/data";

// A user of another tenant sees nothing of acme.

test("the overview lists only globex's pool", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("pool-globex-gpu")).toBeVisible();
  await expect(page.getByText(/acme/i)).toHaveCount(0);
});

test("acme's pools and requests are not found, and the API refuses", async ({ page }) => {
  const response = await page.goto("/pools/gpu-a");
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId("no-access")).toBeVisible();
  await expect(page.getByText("node-001")).toHaveCount(0);

  const list = await page.request.post("/api/compute/joinRequests/list", { data: { tenantId: "acme", poolId: "gpu-a" } });
  expect(list.status()).toBe(403);
  expect((await list.json()).error.code).toBe("PERMISSION_DENIED");
});

test("acme's nodes are not found in the console, and nodes/list refuses", async ({ page }) => {
  for (const path of ["/pools/gpu-a/nodes", `/pools/gpu-a/nodes/${await nodeIdOf("gpu-a-01.fra1.acme.test")}`]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByTestId("no-access")).toBeVisible();
  }
  await expect(page.getByText("gpu-a-01")).toHaveCount(0);
  const list = await page.request.post("/api/compute/nodes/list", { data: { tenantId: "acme", poolId: "gpu-a" } });
  expect(list.status()).toBe(403);
  expect((await list.json()).error.code).toBe("PERMISSION_DENIED");
});
