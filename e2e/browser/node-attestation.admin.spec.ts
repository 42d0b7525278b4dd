import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "@/test/browser/axe";
import { createAcmePool, createNodes } from "@/test/browser/data";
import { setBootStates, setNodeAttestation } from "@/test/browser/node-attestation";

// SPEC I3 in the console: the nodes list's attestation column and filter, and
// the node page's attestation with the values that did not match.
const GOLDEN = "3d".repeat(32);
const TAMPERED = "e7".repeat(32);
const ZERO = "00".repeat(32);

async function attestedPool() {
  const { poolId, siteId } = await createAcmePool("attest");
  await setBootStates(poolId, [{ name: "golden-2026-12", pcrs: { "0": ZERO, "7": GOLDEN } }], true);
  const [trusted, untrusted, never] = await createNodes(poolId, siteId, 3);
  await setNodeAttestation(trusted!.id, { state: "trusted", bootState: "golden-2026-12", pcrs: { "0": ZERO, "7": GOLDEN }, unmatched: [] });
  await setNodeAttestation(untrusted!.id, { state: "untrusted", bootState: null, pcrs: { "0": ZERO, "7": TAMPERED }, unmatched: [7] });
  return { poolId, trusted: trusted!, untrusted: untrusted!, never: never! };
}

test("the nodes list shows each node's attestation and filters by it; the filter lives in the URL", async ({ page }) => {
  const { poolId, trusted, untrusted, never } = await attestedPool();
  await page.goto(`/pools/${poolId}/nodes`);
  const row = (hostname: string) => page.getByTestId("node-row").filter({ hasText: hostname }).getByTestId("attestation");
  await expect(row(trusted.hostname)).toContainText("trusted");
  await expect(row(trusted.hostname)).toContainText("golden-2026-12");
  await expect(row(untrusted.hostname)).toContainText("untrusted");
  await expect(row(never.hostname)).toContainText("stale");

  const filter = page.getByRole("navigation", { name: "Filter by attestation" });
  await filter.getByRole("link", { name: "untrusted", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/pools/${poolId}/nodes\\?attestation=untrusted$`));
  await expect(page.getByTestId("node-row")).toHaveCount(1);
  await expect(page.getByTestId("node-row")).toContainText(untrusted.hostname);
  await page.reload();
  await expect(page.getByTestId("node-row")).toHaveCount(1);
  await filter.getByRole("link", { name: "stale" }).click();
  await expect(page.getByTestId("node-row")).toHaveCount(1);
  await expect(page.getByTestId("node-row")).toContainText(never.hostname);
  await expectNoAxeViolations(page, "nodes list filtered by attestation");
  await filter.getByRole("link", { name: "any attestation" }).click();
  await expect(page.getByTestId("node-row")).toHaveCount(3);
});

test("an untrusted node's page shows its state, when, and the value that matched no known boot state", async ({ page }) => {
  const { poolId, untrusted, trusted } = await attestedPool();
  await page.goto(`/pools/${poolId}/nodes/${untrusted.id}`);
  const panel = page.getByTestId("attestation");
  await expect(panel.getByTestId("attestation-state")).toHaveText("untrusted");
  await expect(panel).toContainText("none matched");
  await expect(panel.getByTestId("attestation-unmatched")).toHaveText("PCR 7 matched no known boot state of the pool.");
  const unmatchedRow = panel.locator('tr[data-unmatched="true"]');
  await expect(unmatchedRow).toHaveCount(1);
  await expect(unmatchedRow).toContainText(TAMPERED);
  await expect(unmatchedRow).toContainText("no known state");
  await expectNoAxeViolations(page, "untrusted node page");

  await page.goto(`/pools/${poolId}/nodes/${trusted.id}`);
  await expect(panel.getByTestId("attestation-state")).toHaveText("trusted");
  await expect(panel).toContainText("golden-2026-12");
  await expect(panel.locator('tr[data-unmatched="true"]')).toHaveCount(0);
});

test("on a phone the attestation is a labelled field of each node's card", async ({ page }) => {
  const { poolId, untrusted } = await attestedPool();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/pools/${poolId}/nodes`);
  const cell = page.getByTestId("node-row").filter({ hasText: untrusted.hostname }).getByTestId("attestation");
  await expect(cell).toBeVisible();
  await expect(cell).toHaveAttribute("data-label", "Attestation");
  await expectNoAxeViolations(page, "nodes list on a phone");
});
