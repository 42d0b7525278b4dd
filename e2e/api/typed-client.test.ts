import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { joinRequestJson } from "@/lib/join-requests/join-request-json";
import { listPendingJoinRequests } from "@/docs/client/example";

// Issue 13 item 5: the README's typed client (openapi-typescript types of
// docs/openapi.json + openapi-fetch) compiles on its own and lists join requests.
describe("a typed client generated from the OpenAPI document", () => {
  it("compiles (tsc, strict, against docs/client/openapi.d.ts)", async () => {
    const tsc = promisify(execFile)("node", ["node_modules/typescript-native/lib/tsc.js", "-p", "docs/client/tsconfig.json"]);
    await expect(tsc.catch((error: { stdout?: string }) => Promise.reject(new Error(error.stdout)))).resolves.toBeDefined();
  }, 60_000); // TypeScript 7 (npm run typecheck's) over the generated types: under a second alone, a few on a busy machine

  it("lists the pending join requests of acme's gpu-a with the demo service key", async () => {
    const requests = await listPendingJoinRequests({
      baseUrl: inject("baseUrl"),
      serviceKey: "bcsk_acmeadmin.demo-acme-admin-secret",
      tenantId: "acme",
      poolId: "gpu-a",
    });
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) {
      expect(joinRequestJson.parse(request).state).toBe("pending");
      expect(request.poolId === "gpu-a" || request.poolId === null).toBe(true);
    }
  });

  it("throws the error envelope's code for a key that may not read the pool", async () => {
    const call = listPendingJoinRequests({
      baseUrl: inject("baseUrl"),
      serviceKey: "bcsk_globexadmin.demo-globex-admin-secret",
      tenantId: "acme",
      poolId: "gpu-a",
    });
    await expect(call).rejects.toThrow("403 PERMISSION_DENIED");
  });
});
