import { expect, test } from "@playwright/test";
import { createPendingRequest, storedMachineOf } from "@/test/browser/data";
import { openQueue, rowOf } from "@/test/browser/queue";

test("the detail page shows every field and the request's timeline", async ({ page }) => {
  // Seeded: rejected by the demo admin key with a reason (SPEC Part C).
  await openQueue(page, "gpu-a", "rejected");
  await rowOf(page, "node-004.fra1.acme.test").getByRole("link", { name: "node-004.fra1.acme.test" }).click();
  await expect(page).toHaveURL(/\/pools\/gpu-a\/requests\/jreq_[0-9a-z]{26}$/);
  const detail = page.getByTestId("request-detail");
  await expect(detail.getByRole("heading")).toContainText("node-004.fra1.acme.test");
  // The machine's identifiers as stored (the seed's machine may present a fresh key each seeding).
  const machine = await storedMachineOf("acme", "node-004.fra1.acme.test");
  for (const text of [
    "acme/fra1/gpu-a",
    "TPM EK not allowed",
    "SN-ACME-4004",
    "hardware not expected at this site",
    machine.id,
    machine.systemUuid,
    machine.macAddresses.join(", "),
    machine.tpmEkSha256!,
    machine.csrSha256,
  ]) {
    await expect(detail).toContainText(text);
  }
  await expect(detail).toContainText("Acme admin (demo) (bcsk_acmeadmin)");
  await expect(detail.getByRole("button", { name: /Approve|Reject|Withdraw/ })).toHaveCount(0); // decided
  const events = page.getByTestId("timeline-event");
  await expect(events).toHaveCount(2);
  await expect(events.nth(0)).toHaveAttribute("data-type", "security.join-request.created");
  await expect(events.nth(1)).toHaveAttribute("data-type", "security.join-request.rejected");
  await expect(events.nth(1)).toContainText("hardware not expected at this site");
});

test("a request can be approved from its detail page", async ({ page }) => {
  const request = await createPendingRequest({ poolId: "gpu-b", label: "detail" });
  await page.goto(`/pools/gpu-b/requests/${request.id}`);
  await page.getByRole("button", { name: "Approve…" }).click();
  const dialog = page.getByRole("dialog", { name: `Approve ${request.hostname}` });
  await dialog.getByRole("radio", { name: "15 min" }).check();
  await dialog.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("request-detail").locator(".badge-approved")).toHaveText("approved");
  await expect(page.getByTestId("timeline-event")).toHaveCount(2);
  await expect(page.getByTestId("timeline-event").nth(1)).toContainText("admin@acme.test");
});

test("a request another pool owns is not found through this pool", async ({ page }) => {
  const request = await createPendingRequest({ poolId: "gpu-b", label: "elsewhere" });
  await page.goto(`/pools/gpu-a/requests/${request.id}`);
  await expect(page.getByTestId("no-access")).toBeVisible();
  await page.goto(`/pools/gpu-a/requests/not-an-id`);
  await expect(page.getByTestId("no-access")).toBeVisible();
});
