import { expect, test } from "@playwright/test";
import { nodeIdOf } from "@/test/browser/data";
import { openQueue, rowOf } from "@/test/browser/queue";

// A pool-scoped admin: gpu-a only.

test("the overview lists only gpu-a", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("pool-gpu-a")).toBeVisible();
  for (const other of ["gpu-b", "legacy", "cpu-x", "globex-gpu"]) await expect(page.getByTestId(`pool-${other}`)).toHaveCount(0);
  await expect(page.getByTestId("site-ams1")).toHaveCount(0);
});

test("gpu-a's queue has action controls", async ({ page }) => {
  await openQueue(page, "gpu-a");
  await expect(rowOf(page, "node-001.fra1.acme.test").getByRole("button", { name: "Approve node-001.fra1.acme.test" })).toBeVisible();
});

test("another pool, existing or not, shows the same no-access page", async ({ page }) => {
  const answers: string[] = [];
  for (const path of ["/pools/gpu-b", "/pools/no-such-pool", "/pools/globex-gpu"]) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByTestId("no-access")).toBeVisible();
    answers.push(await page.getByTestId("no-access").innerText());
  }
  expect(new Set(answers).size).toBe(1); // indistinguishable
  expect(await page.getByTestId("request-row").count()).toBe(0);
});

test("gpu-b's nodes are the same no-access page, also a gpu-b node under gpu-a's address; gpu-a's are open", async ({ page }) => {
  const gpuB = await nodeIdOf("gpu-b-01.fra1.acme.test");
  const answers: string[] = [];
  for (const path of [
    "/pools/gpu-b/nodes",
    `/pools/gpu-b/nodes/${gpuB}`,
    `/pools/gpu-a/nodes/${gpuB}`,
    "/pools/gpu-a/nodes/node_00000000000000000000000000",
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByTestId("no-access")).toBeVisible();
    answers.push(await page.getByTestId("no-access").innerText());
  }
  expect(new Set(answers).size).toBe(1);
  await expect(page.getByText("gpu-b-01")).toHaveCount(0);

  await page.goto(`/pools/gpu-a/nodes/${await nodeIdOf("gpu-a-01.fra1.acme.test")}`);
  await expect(page.getByTestId("node-detail")).toContainText("gpu-a-01.fra1.acme.test");
  await expect(page.getByRole("button", { name: "Revoke node" })).toBeVisible();
});
