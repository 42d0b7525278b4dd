import { expect, test } from "@playwright/test";
import { join, makeMachine } from "@/test/browser/machine";

// "Trust this machine" and "Allow this TPM" need compute:attestation:manage
// (tenant-admin, SPEC E2): a pool-admin on every pool approves, but is not offered them.
test("a pool-admin sees Approve on a discovery-deferred request, but not Trust this machine", async ({ page, baseURL }) => {
  const machine = await makeMachine("no-trust");
  const first = await join(baseURL!, machine);
  expect(first.status).toBe(202);
  await page.goto(`/pools/gpu-b/requests/${first.body.requestId}`);
  await expect(page.getByRole("button", { name: "Approve…" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Trust this machine…" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Allow this TPM…" })).toHaveCount(0);
});
