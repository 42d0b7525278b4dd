import { createServer, request, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { clientAddress, UNKNOWN_ADDRESS } from "./client-address";
import { stampPeerAddresses } from "./peer-address";

/** The headers a real server sees for one request from `from` carrying `headers`. */
async function headersSeen(from: string, headers: Record<string, string>): Promise<IncomingHttpHeaders> {
  let seen: IncomingHttpHeaders = {};
  const server = createServer((incoming, answer) => {
    seen = incoming.headers;
    answer.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) =>
    request({ port, host: "127.0.0.1", localAddress: from, headers, agent: false }, (answer) => answer.resume().on("end", resolve))
      .on("error", reject)
      .end(),
  );
  await new Promise((resolve) => server.close(resolve));
  return seen;
}

describe("clientAddress (SPEC G9)", () => {
  it("no stamp of this process: unknown, whatever the client sent", async () => {
    // before stampPeerAddresses: a request parsed before instrumentation ran
    const early = await headersSeen("127.0.0.2", { "x-bc-peer-address": "guess 203.0.113.9", "x-forwarded-for": "203.0.113.9" });
    stampPeerAddresses();
    expect(clientAddress(early, 0)).toBe(UNKNOWN_ADDRESS);
    expect(clientAddress({ "x-bc-peer-address": "guess 203.0.113.9" }, 0)).toBe(UNKNOWN_ADDRESS);
  });

  it("no proxy: the socket's address, never X-Forwarded-For or a client's copy of the stamp", async () => {
    stampPeerAddresses();
    stampPeerAddresses(); // a development reload subscribes once
    const seen = await headersSeen("127.0.0.3", { "x-forwarded-for": "203.0.113.7", "x-bc-peer-address": "x 203.0.113.8" });
    expect(clientAddress(seen, 0)).toBe("127.0.0.3");
    expect(String(seen["x-bc-peer-address"]).endsWith(" 127.0.0.3")).toBe(true);
    expect(clientAddress(await headersSeen("127.0.0.4", {}), 0)).toBe("127.0.0.4");
  });

  it("one trusted proxy: the address it appended, whatever the client claimed before it", () => {
    expect(clientAddress({ "x-forwarded-for": "10.9.9.9, 198.51.100.4" }, 1)).toBe("198.51.100.4");
  });
  it("two trusted proxies: the client is second from the right", () => {
    expect(clientAddress({ "x-forwarded-for": "1.1.1.1, 198.51.100.4, 10.0.0.2" }, 2)).toBe("198.51.100.4");
  });
  it("more hops configured than entries: the leftmost; no header: the socket's address", async () => {
    stampPeerAddresses();
    expect(clientAddress({ "x-forwarded-for": "198.51.100.4" }, 3)).toBe("198.51.100.4");
    expect(clientAddress(await headersSeen("127.0.0.5", {}), 1)).toBe("127.0.0.5");
    expect(clientAddress({ "x-forwarded-for": " , " }, 1)).toBe(UNKNOWN_ADDRESS);
  });
  it("one spelling per address: an IPv4-mapped IPv6 address is the IPv4 one", () => {
    expect(clientAddress({ "x-forwarded-for": "::ffff:198.51.100.4" }, 1)).toBe("198.51.100.4");
    expect(clientAddress({ "x-forwarded-for": "2001:DB8::1" }, 1)).toBe("2001:db8::1");
  });
});
