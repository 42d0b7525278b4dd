import { expect, test } from "@playwright/test";
import { createPendingRequest, storedRequest } from "@/test/browser/data";
import { SERVICE_KEYS } from "@/test/browser/service-api";

// SPEC B4: a mutation authenticated by the console's session cookie must come
// from the console's own origin. Checked at the API with the saved session.

test("a cookie-authenticated mutation from a foreign origin, or with no Origin, is refused", async ({ page, baseURL }) => {
  const request = await createPendingRequest({ poolId: "gpu-b", label: "csrf" });
  const body = { tenantId: "acme", poolId: "gpu-b", requestId: request.id };

  const cases: Record<string, string>[] = [{ origin: "https://evil.example" }, {}, { origin: "null" }];
  for (const headers of cases) {
    const response = await page.request.post("/api/compute/joinRequests/approve", { data: body, headers });
    expect(response.status()).toBe(403);
    const { error } = await response.json();
    expect(error.code).toBe("PERMISSION_DENIED");
    expect(error.message).toContain("cross-origin");
  }
  expect((await storedRequest(request.id)).state).toBe("pending");

  // Reads are not mutations: the session lists from anywhere (CORS keeps other sites from reading the answer).
  const list = await page.request.post("/api/compute/joinRequests/list", {
    data: { tenantId: "acme", poolId: "gpu-b" },
    headers: { origin: "https://evil.example" },
  });
  expect(list.status()).toBe(200);

  // A service key is no ambient credential: not checked.
  const service = await page.request.post("/api/compute/joinRequests/reject", {
    data: body,
    headers: { origin: "https://evil.example", authorization: `Bearer ${SERVICE_KEYS.acmeAdmin}` },
  });
  expect(service.status()).toBe(200);
  expect((await storedRequest(request.id)).state).toBe("rejected");

  // The console's own origin with the session: allowed (rejecting again returns it unchanged).
  const own = await page.request.post("/api/compute/joinRequests/reject", { data: body, headers: { origin: new URL(baseURL!).origin } });
  expect(own.status()).toBe(200);
});

test("without a session or key the API answers UNAUTHENTICATED", async ({ playwright, baseURL }) => {
  // An explicit empty storage state: the runner would otherwise apply the project's signed-in one.
  const anonymous = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const response = await anonymous.post("/api/compute/joinRequests/list", { data: { tenantId: "acme", poolId: "gpu-b" } });
  expect(response.status()).toBe(401);
  expect((await response.json()).error.code).toBe("UNAUTHENTICATED");
  await anonymous.dispose();
});

test("a forged session cookie is no session", async ({ playwright, baseURL }) => {
  const forged = await playwright.request.newContext({
    baseURL,
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { cookie: "next-auth.session-token=forged.not-a-jwe" },
  });
  const response = await forged.post("/api/compute/joinRequests/list", { data: { tenantId: "acme", poolId: "gpu-b" } });
  expect(response.status()).toBe(401);
  await forged.dispose();
});
