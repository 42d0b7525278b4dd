import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "@/test/browser/axe";
import { storedApprovals, storedRequest, userIdOf } from "@/test/browser/data";
import { expectNoSidewaysScroll } from "@/test/browser/layout";
import { GPU_C_JOIN_TOKEN, joinPending } from "@/test/browser/machine";
import { openQueue, rowOf, screenshotPath } from "@/test/browser/queue";
import { E2E_ROLES } from "@/test/browser/roles";
import { callAsService } from "@/test/browser/service-api";

// SPEC H1 in the console: gpu-c requires 2 approvals. Signed in as
// admin@acme.test (pool-admin); owner@acme.test (tenant-admin, who may decide
// every acme pool) is the second approver, in a browser context of their own.
// Each test makes its own requests through the machine join with gpu-c's
// demo token, so the seeded one (node-015) is left for the demo.

const OWNER_STATE = E2E_ROLES.find((role) => role.name === "owner")!.storageState;

async function approveInDialog(page: Page, hostname: string, expectedEffect: string) {
  await rowOf(page, hostname)
    .getByRole("button", { name: `Approve ${hostname}` })
    .click();
  const dialog = page.getByRole("dialog", { name: `Approve ${hostname}` });
  await expect(dialog.getByTestId("approval-effect")).toContainText(expectedEffect);
  await dialog.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(dialog).toBeHidden();
}

test("two users approve one request of gpu-c: the first is told 1 more is needed, the second completes it", async ({
  page,
  browser,
  baseURL,
}) => {
  const request = await joinPending(baseURL!, "quorum", GPU_C_JOIN_TOKEN);
  const [admin, owner] = [await userIdOf("admin@acme.test"), await userIdOf("owner@acme.test")];

  // the first approver
  await openQueue(page, "gpu-c");
  const row = rowOf(page, request.hostname);
  await expect(row.getByTestId("approvals-line")).toHaveText("0 of 2 approvals");
  await approveInDialog(page, request.hostname, "1 more needed after yours");
  await expect(page.getByText("Approval recorded · 1 more needed")).toBeVisible(); // the toast
  // still pending, in the pending list, with who approved and when (the absolute time in the title)
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("approvals-line")).toHaveText(/^1 of 2 approvals · admin@acme\.test, \d+ s ago$/);
  await expect(row.getByTestId("approvals-line").locator("time")).toHaveAttribute("title", /\d/);
  await expect(row.getByTestId("approved-by-me")).toHaveText("You approved this · waiting for 1 more");
  await expect(row.getByRole("button", { name: `Approve ${request.hostname}` })).toHaveCount(0);
  expect(await storedRequest(request.id)).toMatchObject({ state: "pending", decidedAt: null });
  expect(await storedApprovals(request.id)).toEqual([{ principal: admin, ttlSeconds: 3600 }]);

  // the request page says the same, and offers no Approve to the one who approved
  await page.goto(`/pools/gpu-c/requests/${request.id}`);
  await expect(page.getByTestId("request-detail").getByTestId("approvals-line")).toContainText("1 of 2 approvals · admin@acme.test");
  await expect(page.getByTestId("approved-by-me")).toContainText("You approved this · waiting for 1 more");
  await expect(page.getByRole("button", { name: "Approve…" })).toHaveCount(0);
  await expect(page.getByTestId("timeline")).toContainText("Approval recorded");

  // the second approver, in their own browser context
  const ownerContext = await browser.newContext({ storageState: OWNER_STATE, baseURL });
  try {
    const ownerPage = await ownerContext.newPage();
    await openQueue(ownerPage, "gpu-c");
    await expect(rowOf(ownerPage, request.hostname).getByTestId("approvals-line")).toContainText("1 of 2 approvals · admin@acme.test");
    await approveInDialog(ownerPage, request.hostname, "Your approval completes it");
    await expect(ownerPage.getByText(`Approved ${request.hostname}`)).toBeVisible();
    await expect(rowOf(ownerPage, request.hostname)).toHaveCount(0); // left the pending list
  } finally {
    await ownerContext.close();
  }
  expect(await storedRequest(request.id)).toMatchObject({ state: "approved", poolId: "gpu-c", decidedBy: owner });
  expect((await storedApprovals(request.id)).map((approval) => approval.principal)).toEqual([admin, owner]);

  await openQueue(page, "gpu-c", "approved");
  await expect(rowOf(page, request.hostname).getByTestId("approvals-line")).toContainText(
    /2 of 2 approvals · admin@acme\.test, .+ · owner@acme\.test, /,
  );
});

test("bulk approve says how many it approved and how many still wait for more approvals", async ({ page, baseURL }) => {
  const [once, fresh] = [
    await joinPending(baseURL!, "bulk-once", GPU_C_JOIN_TOKEN),
    await joinPending(baseURL!, "bulk-fresh", GPU_C_JOIN_TOKEN),
  ];
  // someone else (a service key is a principal too) approved the first already
  expect(
    (await callAsService(page.request, "joinRequests/approve", { tenantId: "acme", poolId: "gpu-c", requestId: once.id })).body.state,
  ).toBe("pending");
  await openQueue(page, "gpu-c");
  for (const request of [once, fresh]) await rowOf(page, request.hostname).getByRole("checkbox").check();
  await page.getByRole("button", { name: "Approve selected" }).click();
  const dialog = page.getByRole("dialog", { name: "Approve 2 requests" });
  await dialog.getByRole("button", { name: "Approve 2 requests" }).click();
  await expect(dialog.getByTestId("bulk-summary")).toHaveText("Approved 1 of 2 requests · 1 waits for more approvals.");
  await expect(dialog.getByTestId("bulk-result").filter({ hasText: fresh.hostname })).toContainText("recorded · 1 more needed");
  await dialog.getByRole("button", { name: "Close" }).click();
  expect((await storedRequest(once.id)).state).toBe("approved");
  expect((await storedRequest(fresh.id)).state).toBe("pending");
  await expect(rowOf(page, fresh.hostname).getByTestId("approvals-line")).toContainText("1 of 2 approvals · admin@acme.test");

  // selected again, it is skipped: approving again would change nothing
  await rowOf(page, fresh.hostname).getByRole("checkbox").check();
  await page.getByRole("button", { name: "Approve selected" }).click();
  await expect(page.getByTestId("bulk-skipped")).toContainText("You approved this · waiting for 1 more");
});

test("“Needs my approval” hides what I approved, in the URL; the state filter keeps it under pending", async ({ page, baseURL }) => {
  const [mine, theirs] = [await joinPending(baseURL!, "mine", GPU_C_JOIN_TOKEN), await joinPending(baseURL!, "theirs", GPU_C_JOIN_TOKEN)];
  await callAsService(page.request, "joinRequests/approve", { tenantId: "acme", poolId: "gpu-c", requestId: theirs.id });
  await openQueue(page, "gpu-c");
  await approveInDialog(page, mine.hostname, "1 more needed after yours");
  await expect(rowOf(page, mine.hostname).getByTestId("approvals-line")).toContainText("1 of 2 approvals");

  await page.getByRole("checkbox", { name: "Needs my approval" }).check();
  await expect(page).toHaveURL(/\?state=pending&awaiting=me$/);
  await expect(rowOf(page, mine.hostname)).toHaveCount(0);
  await expect(rowOf(page, theirs.hostname)).toHaveCount(1);
  await page.reload();
  await expect(page.getByRole("checkbox", { name: "Needs my approval" })).toBeChecked();
  await expect(rowOf(page, theirs.hostname)).toHaveCount(1);
  await expect(rowOf(page, mine.hostname)).toHaveCount(0);

  await page.getByRole("checkbox", { name: "Needs my approval" }).uncheck();
  await expect(page).toHaveURL(/\?state=pending$/);
  await expect(rowOf(page, mine.hostname)).toHaveCount(1);
});

test("a pool-admin sees the count, not the control that changes it", async ({ page }) => {
  await page.goto("/pools/gpu-c");
  await expect(page.getByTestId("approvals-required")).toHaveText("2 approvals required");
  await expect(page.getByRole("button", { name: "Change approvals required…" })).toHaveCount(0);
});

for (const [size, viewport] of [
  ["390", { width: 390, height: 844 }],
  ["1280", { width: 1280, height: 850 }],
] as const) {
  /** A gpu-c request approved once, by the demo admin service key. */
  async function partiallyApproved(page: Page, baseURL: string, label: string) {
    await page.setViewportSize(viewport);
    const request = await joinPending(baseURL, label, GPU_C_JOIN_TOKEN);
    await callAsService(page.request, "joinRequests/approve", { tenantId: "acme", poolId: "gpu-c", requestId: request.id });
    return request;
  }

  test(`${size} px: a partially approved request in the queue and its approve dialog fit, pass axe, and are pictured`, async ({
    page,
    baseURL,
  }) => {
    const request = await partiallyApproved(page, baseURL!, `fitq${size}`);
    await openQueue(page, "gpu-c");
    const row = rowOf(page, request.hostname);
    await expect(row.getByTestId("approvals-line")).toContainText("1 of 2 approvals · Acme admin (demo) (bcsk_acmeadmin)");
    await expectNoSidewaysScroll(page, "queue");
    await expectNoAxeViolations(page);
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`approvals-queue-${size}`), fullPage: size === "1280" });

    await row.getByRole("button", { name: `Approve ${request.hostname}` }).click();
    await expect(page.getByTestId("approval-effect")).toContainText("Your approval completes it");
    await expectNoAxeViolations(page);
  });

  test(`${size} px: a partially approved request's page fits, passes axe, and is pictured`, async ({ page, baseURL }) => {
    const request = await partiallyApproved(page, baseURL!, `fitr${size}`);
    await page.goto(`/pools/gpu-c/requests/${request.id}`);
    await expect(page.getByTestId("approvals-line")).toContainText("1 of 2 approvals · Acme admin (demo) (bcsk_acmeadmin)");
    await expectNoSidewaysScroll(page, "request page");
    await expectNoAxeViolations(page);
    await page.screenshot({ path: screenshotPath(`approvals-request-${size}`), fullPage: true });
  });
}
