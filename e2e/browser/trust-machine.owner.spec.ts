import { expect, test } from "@playwright/test";
import pg from "pg";
import { join, makeMachine, storedJoin } from "./support/machine";

// SPEC E3 in the console: on a request the discovery attestor deferred, the
// tenant-admin chooses "Trust this machine": its UUID and MACs go into the
// site's inventory (assigned to this pool), then the request is approved, and
// both results are shown. The machine's next fresh join is admitted at once.

async function discovered(systemUuid: string) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ site_id: string; assigned_pool_id: string | null; mac_addresses: string[] }>(
      "SELECT site_id, assigned_pool_id, mac_addresses FROM discovered_machines WHERE system_uuid = $1", [systemUuid]);
    return rows;
  } finally {
    await client.end();
  }
}

test("Trust this machine teaches discovery and approves; the machine's next fresh join is admitted", async ({ page, baseURL }) => {
  const machine = await makeMachine("trust");
  const first = await join(baseURL!, machine);
  expect(first.status).toBe(202);
  expect(first.body.reasons).toEqual(["unknown-to-discovery"]);
  const requestId = first.body.requestId as string;

  await page.goto(`/pools/gpu-b/requests/${requestId}`);
  await page.getByRole("button", { name: "Trust this machine…" }).click();
  const dialog = page.getByRole("dialog", { name: `Trust this machine: ${machine.hostname}` });
  await expect(dialog.getByRole("checkbox", { name: "Assign it to pool gpu-b" })).toBeChecked();
  await dialog.getByRole("button", { name: "Trust and approve" }).click();
  const results = dialog.getByTestId("teach-results");
  await expect(results).toContainText(`fra1's discovery inventory knows ${machine.systemUuid} (added, assigned to gpu-b)`);
  await expect(results).toContainText("Approved for gpu-b until");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  // focus returns to what opened the dialog
  await expect(page.getByRole("button", { name: "Trust this machine…" }).or(page.getByRole("button", { name: "Withdraw approval…" }))).toBeVisible();

  expect(await discovered(machine.systemUuid)).toEqual([{ site_id: "fra1", assigned_pool_id: "gpu-b", mac_addresses: machine.macAddresses }]);
  expect(await storedJoin(requestId)).toMatchObject({ state: "approved" });

  // this request's retry is admitted by the approval; a re-imaged machine (new key, new CSR) by the inventory
  expect((await join(baseURL!, machine)).status).toBe(200);
  const reimaged = { ...(await makeMachine("trust-reimaged")), systemUuid: machine.systemUuid, macAddresses: machine.macAddresses };
  const fresh = await join(baseURL!, reimaged);
  expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
  expect(fresh.body.status).toBe("admitted");
});
