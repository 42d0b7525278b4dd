import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { createAcmePool } from "@/test/browser/data";

// SPEC E3 in the console, as the tenant-admin: a site's discovery inventory
// (import with a preview, assign a pool, remove) and the tenant's TPM
// allow-list (add by hash with a note, remove).

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
const inventoryOf = (siteId: string) =>
  query<{ system_uuid: string; assigned_pool_id: string | null }>(
    "SELECT system_uuid, assigned_pool_id FROM discovered_machines WHERE site_id = $1 ORDER BY system_uuid",
    [siteId],
  );

test("import a manifest with a preview, then assign and remove machines", async ({ page }) => {
  const { siteId, poolId } = await createAcmePool("discovery");
  const n = randomBytes(2).toString("hex");
  const [a, b] = [`aaaa${n}-0000-4000-8000-000000000001`, `aaaa${n}-0000-4000-8000-000000000002`];
  await page.goto(`/sites/${siteId}/discovery`);
  await expect(page.getByTestId("discovery-empty")).toBeVisible();

  const bad = `systemUuid,macAddresses,assignedPool\n${a},52:54:00:aa:00:01,\nnot-a-uuid,52:54:00:aa:00:02,\n`;
  await page.getByLabel("Manifest file").setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from(bad) });
  await expect(page.getByTestId("import-errors")).toContainText("line 3: systemUuid: must be a UUID");
  await expect(page.getByRole("button", { name: "Import", exact: true })).toHaveCount(0);

  const good = `systemUuid,macAddresses,assignedPool\n${a},52:54:00:aa:00:01,${poolId}\n${b},"52:54:00:aa:00:02 52:54:00:aa:00:03",\n`;
  await page.getByLabel("Manifest file").setInputFiles({ name: "rack.csv", mimeType: "text/csv", buffer: Buffer.from(good) });
  await expect(page.getByTestId("import-preview")).toContainText(
    "This import would create 2, update 0 and leave 0 unchanged, of 2 machines.",
  );
  expect(await inventoryOf(siteId)).toEqual([]); // the preview wrote nothing
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByTestId("discovery-row")).toHaveCount(2);
  expect(await inventoryOf(siteId)).toEqual([
    { system_uuid: a, assigned_pool_id: poolId },
    { system_uuid: b, assigned_pool_id: null },
  ]);

  await page.getByLabel(`Pool for ${b}`).selectOption(poolId);
  await expect
    .poll(() => inventoryOf(siteId))
    .toEqual([
      { system_uuid: a, assigned_pool_id: poolId },
      { system_uuid: b, assigned_pool_id: poolId },
    ]);
  await page.getByLabel("UUID or MAC prefix").fill("52:54:00:aa:00:03");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/query=52%3A54%3A00%3Aaa%3A00%3A03/);
  await expect(page.getByTestId("discovery-row")).toHaveCount(1);
  await page.getByRole("button", { name: `Remove ${b}` }).click();
  await expect(page.getByTestId("discovery-empty")).toBeVisible();
  expect(await inventoryOf(siteId)).toEqual([{ system_uuid: a, assigned_pool_id: poolId }]);
});

test("the TPM allow-list: add by hash with a note, then remove", async ({ page }) => {
  const hash = randomBytes(32).toString("hex");
  await page.goto("/");
  await page.getByTestId("site-fra1").getByRole("link", { name: "TPM allow-list" }).click();
  await expect(page).toHaveURL("/tenants/acme/tpm");
  await page.getByLabel("or its SHA-256 (of the DER SubjectPublicKeyInfo)").fill(hash);
  await page.getByLabel("Note").fill("spare board, rack 9");
  await page.getByRole("button", { name: "Allow", exact: true }).click();
  const row = page.getByTestId("tpm-row").filter({ hasText: hash });
  await expect(row).toContainText("spare board, rack 9");
  // The toast that says so sits over the new last row's Remove button, and a
  // pointer resting on it keeps it open (Sonner pauses its timer on hover):
  // closed, as a user reaching for that button would.
  await expect(page.getByText(`Allowed ${hash.slice(0, 16)}… in acme`)).toBeVisible();
  await page.getByRole("button", { name: "Close toast" }).click();
  expect(await query("SELECT note FROM tpm_allowed_keys WHERE tenant_id = 'acme' AND ek_sha256 = $1", [hash])).toEqual([
    { note: "spare board, rack 9" },
  ]);
  await row.getByRole("button", { name: `Remove ${hash}` }).click();
  await expect(row).toHaveCount(0);

  await page.getByLabel("or its SHA-256 (of the DER SubjectPublicKeyInfo)").fill("not-hex");
  await page.getByRole("button", { name: "Allow", exact: true }).click();
  await expect(page.getByTestId("tpm-allow-form").getByRole("alert")).toContainText("ekSha256: must be 64 hexadecimal digits (SHA-256)");
});
