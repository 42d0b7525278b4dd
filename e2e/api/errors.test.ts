import { beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import { callMethod, chunkedBody, expectError, httpRequest, rawPost, type ApiResponse } from "@/test/api/api-client";
import { createWorld, makeRequest, type World } from "@/test/api/world";

// SPEC B3 (errors, x-request-id), B2 "Bodies over 64 KiB are refused (413)".
let world: World;
beforeAll(async () => {
  world = await createWorld();
});

const METHODS = ["joinRequests/list", "joinRequests/approve", "joinRequests/reject", "events/list"];
const KIB_64 = 64 * 1024;

const listBody = () => ({ tenantId: world.tenantId, poolId: world.pools.a });
/** A valid list body padded with trailing whitespace (still valid JSON) to exactly `bytes` bytes. */
function paddedListBody(bytes: number): string {
  const json = JSON.stringify(listBody());
  return json + " ".repeat(bytes - Buffer.byteLength(json));
}
const postList = (init: RequestInit & { duplex?: "half" }) =>
  httpRequest("/api/compute/joinRequests/list", {
    method: "POST",
    ...init,
    headers: { "content-type": "application/json", authorization: `Bearer ${world.keys.admin}` },
  });

describe("every response carries x-request-id, every error the B3 envelope", () => {
  // One way to provoke each kind of answer; status and code as B3's table says.
  const KINDS: [string, number, string | null, () => Promise<ApiResponse>][] = [
    ["success", 200, null, () => callMethod("joinRequests/list", listBody(), { bearer: world.keys.admin })],
    [
      "INVALID_ARGUMENT",
      400,
      "INVALID_ARGUMENT",
      () => callMethod("joinRequests/list", { ...listBody(), limit: 0 }, { bearer: world.keys.admin }),
    ],
    ["UNAUTHENTICATED", 401, "UNAUTHENTICATED", () => callMethod("joinRequests/list", listBody(), { bearer: null })],
    [
      "PERMISSION_DENIED",
      403,
      "PERMISSION_DENIED",
      () => callMethod("joinRequests/approve", { ...listBody(), requestId: `jreq_${"0".repeat(26)}` }, { bearer: world.keys.viewer }),
    ],
    [
      "NOT_FOUND (pool)",
      404,
      "NOT_FOUND",
      () => callMethod("joinRequests/list", { ...listBody(), poolId: "no-such-pool" }, { bearer: world.keys.admin }),
    ],
    ["NOT_FOUND (unknown method)", 404, "NOT_FOUND", () => callMethod("joinRequests/nope", listBody(), { bearer: world.keys.admin })],
    ["NOT_FOUND (unknown API path)", 404, "NOT_FOUND", () => httpRequest("/api/nope", { method: "POST", body: "{}" })],
    [
      "METHOD_NOT_ALLOWED",
      405,
      "METHOD_NOT_ALLOWED",
      () => callMethod("joinRequests/list", undefined, { httpMethod: "GET", bearer: world.keys.admin }),
    ],
    [
      "INVALID_STATE",
      409,
      "INVALID_STATE",
      async () => {
        const id = await makeRequest(world, { poolId: world.pools.a, outcome: "consumed" });
        return callMethod("joinRequests/approve", { ...listBody(), requestId: id }, { bearer: world.keys.admin });
      },
    ],
    [
      "PAYLOAD_TOO_LARGE",
      413,
      "PAYLOAD_TOO_LARGE",
      () =>
        rawPost("/api/compute/joinRequests/list", paddedListBody(KIB_64 + 1), { headers: { authorization: `Bearer ${world.keys.admin}` } }),
    ],
  ];

  it.each(KINDS)("%s: status, envelope and x-request-id", async (_, status, code, provoke) => {
    const response = await provoke();
    if (code) expectError(response, status, code);
    else expect(response.status).toBe(status);
    expect(response.headers.get("x-request-id")).toMatch(/\S/);
  });

  it("each response has its own request id", async () => {
    const ids = [];
    for (const [, , , provoke] of KINDS) ids.push((await provoke()).headers.get("x-request-id"));
    expect(new Set(ids).size).toBe(KINDS.length);
  });

  it("an error body is exactly {error:{code,message}}, with details [{field,message}] only when there are some", async () => {
    const notFound = await callMethod("joinRequests/list", { ...listBody(), poolId: "no-such-pool" }, { bearer: world.keys.admin });
    expect(Object.keys(notFound.body)).toEqual(["error"]);
    expect(Object.keys(notFound.body.error).sort()).toEqual(["code", "message"]);

    const invalid = await callMethod("joinRequests/list", { ...listBody(), limit: 0 }, { bearer: world.keys.admin });
    expect(Object.keys(invalid.body.error).sort()).toEqual(["code", "details", "message"]);
    expect(invalid.body.error.details).toEqual([{ field: "limit", message: expect.any(String) }]);
  });
});

describe("only POST is allowed on a method URL (B3 METHOD_NOT_ALLOWED)", () => {
  const cases = METHODS.flatMap((method) => ["GET", "PUT", "PATCH", "DELETE"].map((verb) => [verb, method] as const));
  it.each(cases)("%s /api/compute/%s → 405 with allow: POST", async (verb, method) => {
    const response = await callMethod(method, listBody(), { httpMethod: verb, bearer: world.keys.admin });
    expectError(response, 405, "METHOD_NOT_ALLOWED");
    expect(response.headers.get("allow")).toBe("POST");
  });
});

describe("unknown methods and API paths are NOT_FOUND in the envelope, not an HTML page", () => {
  it.each([
    ["POST", "/api/compute/joinRequests/nope"],
    ["POST", "/api/compute/nope/list"],
    ["POST", "/api/compute/joinRequests/list/extra"],
    ["POST", "/api/compute"],
    ["POST", "/api/nope"],
    ["GET", "/api/nope"],
    ["DELETE", "/api/joinRequests"],
  ])("%s %s → 404 NOT_FOUND", async (verb, path) => {
    const response = await httpRequest(path, {
      method: verb,
      headers: { "content-type": "application/json", authorization: `Bearer ${world.keys.admin}` },
      body: verb === "GET" ? undefined : JSON.stringify(listBody()),
    });
    expectError(response, 404, "NOT_FOUND");
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
  });
});

describe("bodies over 64 KiB are refused with 413 (B2)", () => {
  const LIST_PATH = "/api/compute/joinRequests/list";
  // Each on a connection of its own (rawPost's default), so a refused body
  // cannot disturb the connections the other tests share.
  const send = (body: string, chunked: boolean) =>
    rawPost(LIST_PATH, body, { chunked, headers: { authorization: `Bearer ${world.keys.admin}` } });
  const framings = [
    ["with Content-Length", false],
    ["chunked (no Content-Length)", true],
  ] as const;
  const sizes = [
    ["64 KiB + 1 byte", KIB_64 + 1],
    ["1 MiB", 1024 * 1024],
  ] as const;
  const cases = framings.flatMap(([framing, chunked]) => sizes.map(([size, bytes]) => [size, framing, bytes, chunked] as const));

  it.each(cases)("%s %s → 413 PAYLOAD_TOO_LARGE", async (_, __, bytes, chunked) => {
    expectError(await send(paddedListBody(bytes), chunked), 413, "PAYLOAD_TOO_LARGE");
  });

  it.each(framings)("the limit counts bytes, %s: 16,385 four-byte characters (32,770 UTF-16 units) are refused", async (_, chunked) => {
    const body = JSON.stringify({ ...listBody(), padding: "\u{1F600}".repeat(16_385) });
    expect(Buffer.byteLength(body)).toBeGreaterThan(KIB_64);
    expect(body.length).toBeLessThan(KIB_64);
    expectError(await send(body, chunked), 413, "PAYLOAD_TOO_LARGE");
  });

  it.each(framings)("a body of exactly 64 KiB is not refused for its size, %s", async (_, chunked) => {
    const response = await send(paddedListBody(KIB_64), chunked);
    expect(response.status, response.text).toBe(200);
  });

  it("a streamed fetch body (ReadableStream, duplex half) of exactly 64 KiB is accepted", async () => {
    const response = await postList({ body: chunkedBody(paddedListBody(KIB_64)), duplex: "half" });
    expect(response.status, response.text).toBe(200);
  });

  it("after refusing a large chunked body, a kept-alive connection still answers the next request", async () => {
    // The 413 says "Connection: keep-alive": the next request on that connection must be answered
    // (or the server must close the connection with the 413 so the client opens a new one).
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await rawPost(LIST_PATH, paddedListBody(1024 * 1024), {
        chunked: true,
        agent,
        headers: { authorization: `Bearer ${world.keys.admin}` },
      });
      expectError(refused, 413, "PAYLOAD_TOO_LARGE");
      const next = await rawPost(LIST_PATH, JSON.stringify(listBody()), {
        agent,
        headers: { authorization: `Bearer ${world.keys.admin}` },
      });
      expect(next.status, next.text).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});
