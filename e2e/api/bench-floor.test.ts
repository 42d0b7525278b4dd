import { describe, expect, it } from "vitest";
import { httpRequest } from "@/test/api/api-client";
import { createWorld, makeRequests, storedRequest } from "@/test/api/world";

// The benchmark's Next.js floor (server/bench-floor/serve-floor.ts) skips the
// published methods' input schemas, so a deployment must never serve it. The
// shared test server is started as a deployment is: BC_BENCH_FLOOR_TOKEN unset.
// (With it set, `npm run bench`'s smoke drives the floor and checks it answers
// byte for byte as the app does.)

describe("the Next.js floor in a deployment", () => {
  it.each([
    ["no x-bench-floor", {}],
    ["an x-bench-floor of the caller's choosing", { "x-bench-floor": "a".repeat(43) }],
    ["an empty x-bench-floor", { "x-bench-floor": "" }],
  ])("%s: approve through the floor is a 404 and decides nothing", async (_case, extra: Record<string, string>) => {
    const world = await createWorld();
    const [requestId] = await makeRequests(world, 1, { poolId: world.pools.a });
    for (const method of ["joinRequests.approve", "joinRequests.list", "nope"]) {
      const response = await httpRequest(`/api/compute/bench-floor/${method}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${world.keys.admin}`, ...extra },
        body: JSON.stringify({ tenantId: world.tenantId, poolId: world.pools.a, requestId }),
      });
      expect(response.status, `${method}: ${response.text}`).toBe(404);
      expect(response.body).toEqual({ error: { code: "NOT_FOUND", message: "not found" } });
      expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    }
    expect((await storedRequest(requestId!)).state).toBe("pending");
  });
});
