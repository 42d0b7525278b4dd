import { describe, expect, it } from "vitest";
import type { ApiResponse } from "@/test/api/api-client";
import { expectDeclaredResponse } from "@/test/api/declared-response";

// The one check every API test's success answers go through (issue 13 item 4).
const answer = (status: number, body: unknown): ApiResponse => ({ status, body, text: JSON.stringify(body), headers: new Headers() });

describe("answers checked against the registry's declared response schemas", () => {
  it("refuses a 2xx body that does not match, naming the method and zod's issue paths", () => {
    const body = { joinRequests: [{ id: "jreq_x", state: "waiting" }], nextCursor: 7 };
    expect(() => expectDeclaredResponse("joinRequests/list", answer(200, body))).toThrow(
      /^joinRequests\/list answered 200 .*joinRequests\.0\.tenantId: .*joinRequests\.0\.state: .*nextCursor: /,
    );
    expect(() => expectDeclaredResponse("joinRequests/list", answer(200, { joinRequests: [], extra: 1 }))).toThrow(
      /\(body\): Unrecognized key: "extra"/,
    );
  });

  it("refuses a success status the method does not declare; errors are left to expectError", () => {
    expect(() => expectDeclaredResponse("joinRequests/list", answer(202, { joinRequests: [] }))).toThrow(
      "a status its registry entry does not declare",
    );
    expect(() => expectDeclaredResponse("joinRequests/list", answer(404, { nothing: true }))).not.toThrow();
  });

  it("nodes/join: 202 is a pending request or a TPM challenge", () => {
    const pending = { status: "pending", requestId: "jreq_01", expiresAt: "2026-12-04T16:00:00.000Z", reasons: ["unknown-to-discovery"] };
    expect(() => expectDeclaredResponse("nodes/join", answer(202, pending))).not.toThrow();
    expect(() => expectDeclaredResponse("nodes/join", answer(200, pending))).toThrow(/status: /);
  });
});
