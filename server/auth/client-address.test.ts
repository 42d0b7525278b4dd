import { describe, expect, it } from "vitest";
import { clientAddress } from "./client-address";

describe("clientAddress", () => {
  it("no proxy: the entry next start wrote (its peer) when the client sent none", () => {
    expect(clientAddress("203.0.113.7", 0)).toBe("203.0.113.7");
  });
  it("one trusted proxy: the address it appended, whatever the client claimed before it", () => {
    expect(clientAddress("10.9.9.9, 198.51.100.4", 1)).toBe("198.51.100.4");
    expect(clientAddress(["10.9.9.9", "198.51.100.4"], 1)).toBe("198.51.100.4");
  });
  it("two trusted proxies: the client is second from the right", () => {
    expect(clientAddress("1.1.1.1, 198.51.100.4, 10.0.0.2", 2)).toBe("198.51.100.4");
  });
  it("more hops configured than entries: the leftmost; no header: none", () => {
    expect(clientAddress("198.51.100.4", 3)).toBe("198.51.100.4");
    expect(clientAddress(undefined, 0)).toBeNull();
    expect(clientAddress(" , ", 0)).toBeNull();
  });
});
