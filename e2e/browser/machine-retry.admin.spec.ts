import { expect, test } from "@playwright/test";
import { storedRequest, userIdOf } from "@/test/browser/data";
import { join, makeMachine, nodesWithCsr, readCertificate, storedJoin, type Machine } from "@/test/browser/machine";
import { openQueue, rowOf } from "@/test/browser/queue";
import { callAsService } from "@/test/browser/service-api";

// The whole loop of SPEC B5 with the console in the middle: a real machine
// (a fresh key pair and CSR, made here) joins gpu-b with the demo join token
// and is deferred (202 pending: no inventory knows it); the admin decides in
// the browser; the machine's retry with the same CSR gets what the decision
// says: admitted once (200, then 409), or JOIN_REJECTED (403).

/** The machine's first join: deferred by discovery into a new pending request of gpu-b. */
async function deferredJoin(baseURL: string, label: string): Promise<{ machine: Machine; requestId: string }> {
  const machine = await makeMachine(label);
  const first = await join(baseURL, machine);
  expect(first.status, JSON.stringify(first.body)).toBe(202);
  expect(first.body).toMatchObject({ status: "pending", reasons: ["unknown-to-discovery"] });
  expect(first.body.requestId).toMatch(/^jreq_[0-9a-hjkmnp-tv-z]{26}$/);
  const stored = await storedJoin(first.body.requestId);
  expect(stored).toMatchObject({ state: "pending", poolId: "gpu-b", hostname: machine.hostname, csrSha256: machine.csrSha256 });
  return { machine, requestId: first.body.requestId as string };
}

async function expectJoinRejected(baseURL: string, machine: Machine) {
  const retry = await join(baseURL, machine);
  expect(retry.status, JSON.stringify(retry.body)).toBe(403);
  expect(retry.body.error.code).toBe("JOIN_REJECTED");
  expect(retry.xRequestId).toBeTruthy();
  // Rejected stays rejected: no node, and asking again changes nothing.
  expect((await join(baseURL, machine)).status).toBe(403);
  expect(await nodesWithCsr(machine.csrSha256)).toEqual([]);
}

test("approved in the console, the machine's retry is admitted once with a certificate; the next retry is INVALID_STATE", async ({
  page,
  baseURL,
}) => {
  const { machine, requestId } = await deferredJoin(baseURL!, "retry-approve");
  // Undecided, a retry with the same CSR is the same 202 for the same request.
  const waiting = await join(baseURL!, machine);
  expect(waiting.status).toBe(202);
  expect(waiting.body).toMatchObject({ status: "pending", requestId });

  await openQueue(page, "gpu-b");
  await rowOf(page, machine.hostname)
    .getByRole("button", { name: `Approve ${machine.hostname}` })
    .click();
  const dialog = page.getByRole("dialog", { name: `Approve ${machine.hostname}` });
  await expect(dialog.getByRole("radio", { name: "1 h" })).toBeChecked();
  await dialog.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Approved ${machine.hostname}`)).toBeVisible();
  await expect(rowOf(page, machine.hostname)).toHaveCount(0);
  expect(await storedJoin(requestId)).toMatchObject({ state: "approved", consumedAt: null });

  const admitted = await join(baseURL!, machine);
  expect(admitted.status, JSON.stringify(admitted.body)).toBe(200);
  expect(admitted.body).toMatchObject({ status: "admitted" });
  expect(admitted.body.nodeId).toMatch(/^node_[0-9a-hjkmnp-tv-z]{26}$/);
  expect(admitted.body.certificate).toContain("-----BEGIN CERTIFICATE-----");
  const certificate = await readCertificate(admitted.body.certificate, admitted.body.caCertificate, machine);
  expect(certificate).toMatchObject({ subject: `CN=${machine.hostname}`, signedByCa: true, keyIsTheMachines: true });
  expect(certificate.issuer).toBe(certificate.caSubject);

  // The approval admits exactly one join.
  const again = await join(baseURL!, machine);
  expect(again.status, JSON.stringify(again.body)).toBe(409);
  expect(again.body.error.code).toBe("INVALID_STATE");

  const stored = await storedJoin(requestId);
  expect(stored.state).toBe("consumed");
  expect(stored.consumedAt).toBeInstanceOf(Date);
  expect(await nodesWithCsr(machine.csrSha256)).toEqual([
    expect.objectContaining({ id: admitted.body.nodeId, poolId: "gpu-b", hostname: machine.hostname, joinRequestId: requestId }),
  ]);

  // The console shows it consumed, and the timeline has the machine's join.
  await openQueue(page, "gpu-b", "consumed");
  await expect(rowOf(page, machine.hostname).locator(".badge-consumed")).toHaveText("consumed");
  await page.goto(`/pools/gpu-b/requests/${requestId}`);
  const events = page.getByTestId("timeline-event");
  await expect(events).toHaveCount(3);
  await expect(events.nth(0)).toHaveAttribute("data-type", "security.join-request.created");
  await expect(events.nth(1)).toHaveAttribute("data-type", "security.join-request.approved");
  await expect(events.nth(1)).toContainText("admin@acme.test");
  await expect(events.nth(2)).toHaveAttribute("data-type", "security.join-request.consumed");
});

test("rejected in the console with a reason, the machine's retry is JOIN_REJECTED", async ({ page, baseURL }) => {
  const { machine, requestId } = await deferredJoin(baseURL!, "retry-reject");

  await openQueue(page, "gpu-b");
  await rowOf(page, machine.hostname)
    .getByRole("button", { name: `Reject ${machine.hostname}` })
    .click();
  const dialog = page.getByRole("dialog", { name: `Reject ${machine.hostname}` });
  await dialog.getByLabel(/^Reason/).fill("unknown chassis in rack 7");
  await dialog.getByRole("button", { name: "Reject", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Rejected ${machine.hostname}`)).toBeVisible();
  await expect(rowOf(page, machine.hostname)).toHaveCount(0);
  expect(await storedJoin(requestId)).toMatchObject({ state: "rejected", reason: "unknown chassis in rack 7" });
  expect((await storedRequest(requestId)).decidedBy).toBe(await userIdOf("admin@acme.test"));

  await expectJoinRejected(baseURL!, machine);
  expect(await storedJoin(requestId)).toMatchObject({ state: "rejected", consumedAt: null });
});

test("an approval withdrawn in the console makes the machine's retry JOIN_REJECTED", async ({ page, baseURL }) => {
  const { machine, requestId } = await deferredJoin(baseURL!, "retry-withdraw");
  const approved = await callAsService(page.request, "joinRequests/approve", { tenantId: "acme", poolId: "gpu-b", requestId });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  expect(approved.body.state).toBe("approved");

  await openQueue(page, "gpu-b", "approved");
  await rowOf(page, machine.hostname)
    .getByRole("button", { name: `Withdraw the approval of ${machine.hostname}` })
    .click();
  const dialog = page.getByRole("dialog", { name: `Withdraw the approval of ${machine.hostname}` });
  await expect(dialog).toContainText("The machine has not used this approval yet");
  await dialog.getByLabel(/^Reason/).fill("wrong pool for this box");
  await dialog.getByRole("button", { name: "Withdraw approval" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Withdrew the approval of ${machine.hostname}`)).toBeVisible();
  await expect(rowOf(page, machine.hostname)).toHaveCount(0);
  const withdrawn = await storedJoin(requestId);
  expect(withdrawn).toMatchObject({ state: "rejected", reason: "wrong pool for this box" });
  expect((await storedRequest(requestId)).decidedBy).toBe(await userIdOf("admin@acme.test"));

  await expectJoinRejected(baseURL!, machine);
  expect(await storedJoin(requestId)).toMatchObject({ state: "rejected", consumedAt: null });
});
