import { expect, test } from "@playwright/test";
import pg from "pg";
import { SoftwareTpm } from "@/lib/tpm/software-tpm";
import { addDiscoveredMachine } from "@/test/browser/data";
import { join, makeMachine, storedJoin } from "@/test/browser/machine";
import { screenshotPath } from "@/test/browser/queue";

// SPEC E3 in the console: on a request the discovery attestor deferred, the
// tenant-admin chooses "Trust this machine": its UUID and MACs go into the
// site's inventory (assigned to this pool), then the request is approved, and
// both results are shown. The machine's next fresh join is no longer deferred
// by discovery (only by SPEC F2, while its approved node is active).

async function discovered(systemUuid: string) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ site_id: string; assigned_pool_id: string | null; mac_addresses: string[] }>(
      "SELECT site_id, assigned_pool_id, mac_addresses FROM discovered_machines WHERE system_uuid = $1",
      [systemUuid],
    );
    return rows;
  } finally {
    await client.end();
  }
}

test("Trust this machine teaches discovery and approves; the retry is admitted, and a re-imaged join is deferred only as already joined", async ({
  page,
  baseURL,
}) => {
  const machine = await makeMachine("trust");
  const first = await join(baseURL!, machine);
  expect(first.status).toBe(202);
  expect(first.body.reasons).toEqual(["unknown-to-discovery"]);
  const requestId = first.body.requestId as string;

  await page.goto(`/pools/gpu-b/requests/${requestId}`);
  await expect(page.getByText("you are a tenant admin")).toBeVisible();
  await page.getByRole("button", { name: "Trust this machine…" }).click();
  const dialog = page.getByRole("dialog", { name: `Trust this machine: ${machine.hostname}` });
  await expect(dialog.getByRole("checkbox", { name: "Assign it to pool gpu-b" })).toBeChecked();
  await page.screenshot({ path: screenshotPath("trust-machine-dialog") });
  await dialog.getByRole("button", { name: "Trust and approve" }).click();
  const results = dialog.getByTestId("teach-results");
  await expect(results).toContainText(`fra1's discovery inventory knows ${machine.systemUuid} (added, assigned to gpu-b)`);
  await expect(results).toContainText("Approved for gpu-b until");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  // focus returns to what opened the dialog
  await expect(
    page.getByRole("button", { name: "Trust this machine…" }).or(page.getByRole("button", { name: "Withdraw approval…" })),
  ).toBeVisible();

  expect(await discovered(machine.systemUuid)).toEqual([
    { site_id: "fra1", assigned_pool_id: "gpu-b", mac_addresses: machine.macAddresses },
  ]);
  expect(await storedJoin(requestId)).toMatchObject({ state: "approved" });

  // this request's retry is admitted by the approval; a re-imaged machine (new key, new CSR) by the inventory
  expect((await join(baseURL!, machine)).status).toBe(200);
  const reimaged = { ...(await makeMachine("trust-reimaged")), systemUuid: machine.systemUuid, macAddresses: machine.macAddresses };
  const fresh = await join(baseURL!, reimaged);
  expect(fresh.status, JSON.stringify(fresh.body)).toBe(202);
  expect(fresh.body.reasons).toEqual(["machine-already-joined"]); // discovery knows it; its node is active (SPEC F2)
});

test("Allow this TPM puts the EK on the tenant's allow-list and approves; the next fresh join with that TPM is admitted", async ({
  page,
  baseURL,
}) => {
  const GPU_A_TOKEN = "bcjt_demogpua.demo-gpu-a-join-secret";
  // known to fra1's inventory, so only its TPM (a software one whose fresh EK no allow-list knows,
  // proven by credential activation, SPEC F1) defers it in gpu-a, which requires one
  const tpm = SoftwareTpm.withFreshEk();
  const machine = { ...(await makeMachine("allow-tpm")), tpm };
  await addDiscoveredMachine("fra1", "gpu-a", machine);
  const known = { systemUuid: machine.systemUuid, macAddresses: machine.macAddresses };
  const first = await join(baseURL!, machine, GPU_A_TOKEN);
  expect(first.status, JSON.stringify(first.body)).toBe(202);
  expect(first.body.reasons).toEqual(["tpm-ek-not-allowed"]);

  await page.goto(`/pools/gpu-a/requests/${first.body.requestId}`);
  await expect(page.getByRole("button", { name: "Trust this machine…" })).toHaveCount(0); // discovery did not defer it
  await page.getByRole("button", { name: "Allow this TPM…" }).click();
  const dialog = page.getByRole("dialog", { name: `Allow this TPM: ${machine.hostname}` });
  await dialog.getByLabel("Note on the allow-list").fill("rack 12, slot 3");
  await dialog.getByRole("button", { name: "Allow and approve" }).click();
  await expect(dialog.getByTestId("teach-results")).toContainText("is on acme's TPM allow-list");
  await expect(dialog.getByTestId("teach-results")).toContainText("Approved for gpu-a until");

  const reinstalled = { ...(await makeMachine("allow-tpm-again")), ...known, tpm };
  const fresh = await join(baseURL!, reinstalled, GPU_A_TOKEN);
  expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
});
