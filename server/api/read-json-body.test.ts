import { describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { MAX_BODY_BYTES, readJsonBody } from "./read-json-body";

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request("http://localhost/api/compute/joinRequests/list", { method: "POST", body, headers, duplex: "half" } as RequestInit);

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error instanceof ApiError ? error.code : String(error)),
  );

describe("readJsonBody", () => {
  it("reads one JSON object", async () => {
    expect(await readJsonBody(post('{"a":1}'))).toEqual({ a: 1 });
  });

  it("refuses a declared length over 64 KiB before reading", async () => {
    expect(await codeOf(readJsonBody(post("{}", { "content-length": String(MAX_BODY_BYTES + 1) })))).toBe("PAYLOAD_TOO_LARGE");
  });

  it("refuses a streamed body as soon as it passes 64 KiB", async () => {
    const chunk = new Uint8Array(16 * 1024).fill(32);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent++;
        controller.enqueue(chunk);
        if (sent > 100) controller.close();
      },
    });
    expect(await codeOf(readJsonBody(post(stream)))).toBe("PAYLOAD_TOO_LARGE");
    expect(sent).toBeLessThan(10); // stopped reading, did not buffer the whole body
  });

  it("a client that goes away mid-body is an unreadable body, not a database outage", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"a":'));
        controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      },
    });
    expect(await codeOf(readJsonBody(post(stream)))).toBe("INVALID_ARGUMENT");
  });

  it.each([["[]"], ['"x"'], ["null"], [""], ["{"]])("refuses %j as not one JSON object", async (body) => {
    expect(await codeOf(readJsonBody(post(body)))).toBe("INVALID_ARGUMENT");
  });
});
