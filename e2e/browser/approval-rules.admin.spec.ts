import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolationsInBothSchemes } from "@/test/browser/axe";
import { randomSuffix, storedRequest } from "@/test/browser/data";
import { expectNoSidewaysScroll } from "@/test/browser/layout";
import { GPU_B_JOIN_TOKEN, joinPending } from "@/test/browser/machine";
import { openQueue, rowOf, screenshotPath } from "@/test/browser/queue";

// SPEC H2 in the console, as admin@acme.test (pool-admin): a rule written in
// gpu-b's editor, checked as typed, dry-run against the real queue, saved in
// shadow, watched on a rack of machines sent through the join API, enforced,
// and read back on the requests it decided and in the queue's filter. The
// rule matches only this run's hostnames (e2e-rack<random>-…), so the other
// specs' gpu-b requests and the seeded shadow rule are left alone; the rule
// is deleted at the end.

test.describe.configure({ mode: "serial" });

/** A rack: `count` machines with similar hostnames, each deferred (202) into gpu-b. */
async function sendRack(baseURL: string, label: string, count: number) {
  const rack = [];
  for (let index = 0; index < count; index++) rack.push(await joinPending(baseURL, label, GPU_B_JOIN_TOKEN));
  return rack;
}

/** axe in both schemes at 1366 px, then a screenshot at 1366 and one at 390 (a phone, which must not scroll sideways). */
async function auditAndPicture(page: Page, name: string, what: string) {
  await page.setViewportSize({ width: 1366, height: 900 });
  await expectNoAxeViolationsInBothSchemes(page);
  await page.emulateMedia({ colorScheme: "light" });
  await page.screenshot({ path: screenshotPath(`${name}-1366`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page, `${what} on a phone`);
  await page.screenshot({ path: screenshotPath(`${name}-390`), fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });
}

const ruleRow = (page: Page, name: string) => page.getByTestId("rule-row").filter({ hasText: name });
const count = (page: Page, name: string, key: string) => ruleRow(page, name).locator(`[data-count="${key}"] dd`);

test("a rule from the editor to enforcement: checked as typed, dry run, shadow counts, enforce, named on its requests", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(240_000); // nine joins, two axe audits in two schemes, four screenshots
  const label = `rack${randomSuffix()}`;
  const name = `Approve ${label}`;
  const waiting = await sendRack(baseURL!, label, 3);

  await page.goto("/pools/gpu-b/rules");
  await expect(page.getByRole("link", { name: "Rules" })).toHaveAttribute("aria-current", "page");
  await page.getByRole("link", { name: "New rule" }).click();
  await expect(page).toHaveURL(/\/pools\/gpu-b\/rules\/new$/);

  // checked as typed, in the browser, with where the problem is
  await page.getByLabel("Name").fill(name);
  const expression = page.getByLabel("Expression (CEL)");
  await expression.fill("request.machine.hostnam.startsWith('x')");
  await expect(page.getByTestId("expression-error")).toContainText("has no field 'hostnam'");
  await expect(page.getByTestId("expression-error")).toContainText("line 1, column");
  await expect(expression).toHaveAttribute("aria-invalid", "true");
  await expression.fill("request.machine.hostname.startsWith(");
  await expect(page.getByTestId("expression-error")).toContainText("syntax error");
  await expression.fill(`request.machine.hostname.startsWith('e2e-${label}-')`);
  await expect(page.getByTestId("expression-ok")).toBeVisible();
  await expect(page.getByTestId("expression-error")).toHaveCount(0);

  // an approve rule needs its cap: the server's error shows under the field
  await page.getByLabel("At most this many an hour").fill("");
  await page.getByRole("button", { name: "Save rule" }).click();
  await expect(page.locator("#rule-maxPerHour-error")).not.toBeEmpty();
  await expect(page.getByLabel("At most this many an hour")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("At most this many an hour").fill("50");
  await expect(page.locator("#rule-maxPerHour-error")).toBeEmpty(); // edited since: the old answer no longer applies

  // the dry run, before saving: the rack waiting in the queue would be approved
  await page.getByRole("button", { name: "Dry run against the queue" }).click();
  const table = page.getByTestId("dry-run-table");
  await expect(table).toBeVisible();
  for (const request of waiting) {
    await expect(table.locator(`[data-request-id="${request.id}"]`)).toContainText("approve");
    await expect(table.locator(`[data-request-id="${request.id}"]`)).toContainText("pending");
  }
  await expect(page.getByTestId("dry-run-summary")).toContainText(/\d+ would approve/);
  await expect(page.locator("#rule-maxPerHour-error")).toBeEmpty(); // the failed Save's answer is gone
  await auditAndPicture(page, "rule-editor-dry-run", "the rule editor with the dry run");

  // saved in shadow (the default): it records, decides nothing
  await page.getByRole("button", { name: "Save rule" }).click();
  await expect(page).toHaveURL(/\/pools\/gpu-b\/rules$/);
  await expect(ruleRow(page, name).getByTestId("rule-mode")).toHaveText("shadow");
  const ruleId = (await ruleRow(page, name).getAttribute("data-rule-id"))!;
  const shadowed = await sendRack(baseURL!, label, 3);
  for (const request of shadowed) expect((await storedRequest(request.id)).state).toBe("pending");
  await page.reload();
  await expect(count(page, name, "shadow")).toHaveText("3");
  await expect(count(page, name, "enforced")).toHaveText("0");

  await auditAndPicture(page, "rules-page", "the Rules page");

  // enforced: the next machines of the rack are approved by the rule, version 2
  await page.getByRole("button", { name: `Enforce ${name}` }).click();
  await expect(ruleRow(page, name).getByTestId("rule-mode")).toHaveText("enforce");
  await expect(ruleRow(page, name).getByTestId("rule-version")).toHaveText("v2");
  const enforced = await sendRack(baseURL!, label, 3);
  for (const request of enforced) {
    expect(await storedRequest(request.id)).toMatchObject({ state: "approved", decidedBy: `rule:${ruleId}@2` });
  }
  await page.reload();
  await expect(count(page, name, "enforced")).toHaveText("3");
  await expect(count(page, name, "shadow")).toHaveText("3");

  // the request page names the rule that decided it, and the one that only matched in shadow
  await page.goto(`/pools/gpu-b/requests/${enforced[0]!.id}`);
  await expect(page.getByTestId("decided-by-rule")).toContainText(`rule “${name}” v2`);
  await page.getByTestId("decided-by-rule").getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/pools/gpu-b/rules/${ruleId}$`));
  await expect(page.getByTestId("rule-facts")).toContainText("Version 2 · enforce");
  await page.goto(`/pools/gpu-b/requests/${shadowed[0]!.id}`);
  await expect(page.getByTestId("rule-match").filter({ hasText: name })).toContainText("(shadow): would approve");
  await expect(page.getByTestId("decided-by-rule")).toHaveCount(0);

  // the queue's "Decided by a rule": from pending it moves to all, in the URL, and holds the rule's requests only
  await openQueue(page, "gpu-b");
  await page.getByRole("checkbox", { name: "Decided by a rule" }).check();
  await expect(page).toHaveURL(/\?state=all&decided=rule$/);
  for (const request of enforced) await expect(rowOf(page, request.hostname)).toHaveCount(1);
  await expect(rowOf(page, shadowed[0]!.hostname)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("checkbox", { name: "Decided by a rule" })).toBeChecked();
  await expect(rowOf(page, enforced[0]!.hostname)).toHaveCount(1);

  // order by keyboard, then delete with a confirmation
  await page.goto("/pools/gpu-b/rules");
  const names = async () => page.getByTestId("rule-row").locator("td[data-label='Rule'] a").allTextContents();
  const before = await names();
  expect(before.at(-1)).toBe(name);
  await page.getByRole("button", { name: `Move ${name} up` }).focus();
  await page.keyboard.press("Enter");
  await expect.poll(names).toEqual([...before.slice(0, -2), name, before.at(-2)]);
  await page.getByRole("button", { name: `Delete ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Delete ${name}?` });
  await dialog.getByRole("button", { name: "Delete rule" }).click();
  await expect(dialog).toBeHidden();
  await expect(ruleRow(page, name)).toHaveCount(0);
});
