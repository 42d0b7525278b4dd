import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { SoftwareTpm } from "@/lib/tpm/software-tpm";
import { expectNoAxeViolationsInBothSchemes } from "@/test/browser/axe";
import { addDiscoveredMachine } from "@/test/browser/data";
import { expectNoSidewaysScroll } from "@/test/browser/layout";
import { GPU_D_JOIN_TOKEN, join, makeMachine } from "@/test/browser/machine";

// SPEC I1/I2 in the console, as the tenant admin (owner@acme.test: the one who
// may change a pool's boot states and the TPM trust store). A .owner spec,
// not .admin: admin@acme.test is a pool-admin, and may do neither.

const DEMO_EK_PRIVATE_KEY_PEM = readFileSync(new URL("../../fixtures/tpm-ek-demo.key.pem", import.meta.url), "utf8");
const OTHER_ROOT_PEM = readFileSync(new URL("../../fixtures/tpm-ek-certificates/other-root.pem", import.meta.url), "utf8");
const PHONE = { width: 390, height: 844 };

async function sql(text: string, values: unknown[]) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

test("a request deferred boot-state-unknown shows its values and EK certificate; Trust this boot state names them and approves; the retry is admitted", async ({
  page,
  baseURL,
}) => {
  // the demo EK (allow-listed), known to fra1's inventory for gpu-d: only its boot defers it
  const tpm = new SoftwareTpm({ ekPrivateKeyPem: DEMO_EK_PRIVATE_KEY_PEM });
  tpm.extendPcr(7, Buffer.alloc(32, 0xee));
  const machine = { ...(await makeMachine("boot")), tpm };
  await addDiscoveredMachine("fra1", "gpu-d", machine);
  const first = await join(baseURL!, machine, GPU_D_JOIN_TOKEN);
  expect(first.status, JSON.stringify(first.body)).toBe(202);
  expect(first.body.reasons).toEqual(["boot-state-unknown"]);
  const requestId = first.body.requestId as string;
  // what the tpm attestor records for an EK certificate (SPEC I1), shown beside the boot values
  await sql("INSERT INTO join_request_ek_certificates (request_id, issuer, serial, failure, detail) VALUES ($1, $2, $3, $4, $5)", [
    requestId,
    "CN=swtpm-localca",
    "0a1b2c",
    "unknown-issuer",
    "no root of the trust store issued it",
  ]);

  await page.goto(`/pools/gpu-d/requests/${requestId}`);
  const boot = page.getByTestId("boot-measurement");
  await expect(boot).toContainText("Match no known boot state of the pool");
  await expect(boot).toContainText("PCR 7");
  await expect(boot).toContainText(tpm.quote({ nonce: Buffer.alloc(32), pcrSelection: [7] }).pcrs["7"]!);
  await expect(page.getByTestId("ek-certificate")).toContainText("CN=swtpm-localca, serial 0a1b2c");
  await expect(page.getByTestId("ek-certificate")).toContainText("Issuer not in the TPM trust store");
  await expectNoAxeViolationsInBothSchemes(page);
  await page.setViewportSize(PHONE);
  await expectNoSidewaysScroll(page, "request page with boot values, phone");

  await page.getByRole("button", { name: "Trust this boot state…" }).click();
  const dialog = page.getByRole("dialog", { name: `Trust this boot state: ${machine.hostname}` });
  const name = dialog.getByRole("textbox", { name: "Name of the boot state" });
  await expect(name).toHaveValue(/^trusted-with-/);
  await expectNoAxeViolationsInBothSchemes(page);
  // a name the pool already has: the server says so inside the dialog, and nothing is approved
  await name.fill("demo-image-2026-12");
  await dialog.getByRole("button", { name: "Trust and approve" }).click();
  await expect(dialog.getByRole("alert")).toContainText("named twice");
  const stateName = `image-${Date.now()}`;
  await name.fill(stateName);
  await dialog.getByRole("button", { name: "Trust and approve" }).click();
  const results = dialog.getByTestId("teach-results");
  await expect(results).toContainText(`Pool gpu-d knows the boot state "${stateName}"`);
  await expect(results).toContainText("Approved for gpu-d until");
  await dialog.getByRole("button", { name: "Close" }).click();

  const [pool] = await sql("SELECT boot_states FROM pools WHERE id = 'gpu-d'", []);
  const names = (pool.boot_states as { name: string }[]).map((state) => state.name);
  expect(names).toEqual(expect.arrayContaining(["demo-image-2026-12", stateName]));
  expect((await join(baseURL!, machine, GPU_D_JOIN_TOKEN)).status).toBe(200);
});

test("the TPM trust store page: add a root by pasting its PEM, then remove it after confirming", async ({ page }) => {
  await page.goto("/tenants/acme/tpm/trust-store");
  await expect(page.getByRole("heading", { name: /TPM trust store/ })).toBeVisible();
  await page.getByLabel("or paste it").fill(OTHER_ROOT_PEM);
  await page.getByRole("button", { name: "Trust", exact: true }).click();
  const row = page.getByTestId("trust-store-row").filter({ hasText: "other-tpm-vendor-root" });
  await expect(row).toBeVisible();
  await expect(row).toContainText(/[0-9a-f]{64}/);
  await expectNoAxeViolationsInBothSchemes(page);
  await page.setViewportSize(PHONE);
  await expectNoSidewaysScroll(page, "trust store page, phone");

  // not a certificate: said before anything is sent
  await page.getByLabel("or paste it").fill("not a certificate");
  await page.getByRole("button", { name: "Trust", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "certificate:" })).toBeVisible();

  await row.getByRole("button", { name: "Remove CN=other-tpm-vendor-root" }).click();
  const dialog = page.getByRole("dialog", { name: "Remove CN=other-tpm-vendor-root?" });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolationsInBothSchemes(page);
  await dialog.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);
});
