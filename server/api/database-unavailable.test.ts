import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./database-unavailable";

describe("isDatabaseUnavailable", () => {
  it.each([
    ["a refused connection", Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" })],
    ["a driver adapter error in cause", new Error("wrapped", { cause: { kind: "DatabaseNotReachable" } })],
    // Prisma 7 reports a failing $queryRaw as P2010 with the adapter's error in meta
    ["P2010 with meta.driverAdapterError", Object.assign(new Error("raw query failed"), { code: "P2010", meta: { driverAdapterError: { cause: { kind: "DatabaseNotReachable" } } } })],
    ["too many connections", { code: "53300" }],
  ])("recognises %s", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a plain bug", new TypeError("x is undefined")],
    ["a raw query syntax error", Object.assign(new Error("raw query failed"), { code: "P2010", meta: { driverAdapterError: { cause: { kind: "postgres", code: "42601" } } } })],
    ["a unique violation", { code: "P2002" }],
    ["nothing", undefined],
  ])("does not mistake %s for it", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
