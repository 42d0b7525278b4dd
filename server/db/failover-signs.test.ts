import { describe, expect, it } from "vitest";
import { isFailoverSign, readOnlyMemberError } from "./failover-signs";

describe("isFailoverSign", () => {
  it.each([
    // HAProxy with no member passing /primary accepts the connection and closes it
    ["a connection closed at once", new Error("Connection terminated unexpectedly")],
    ["a pooled client cut with the lost leader", new Error("Client has encountered a connection error and is not queryable")],
    [
      "a read-only member behind the leader's address",
      Object.assign(new Error("cannot execute INSERT in a read-only transaction"), { code: "25006" }),
    ],
    // adapter-pg's mapping of a PostgreSQL error, as Prisma 7 wraps it for a raw query (P2010)
    [
      "a read-only error inside P2010",
      Object.assign(new Error("raw query failed"), {
        code: "P2010",
        meta: { driverAdapterError: { cause: { kind: "postgres", code: "25006" } } },
      }),
    ],
    ["the readiness ping's own read-only error", readOnlyMemberError()],
  ])("calls %s a failover", (_, error) => {
    expect(isFailoverSign(error)).toBe(true);
  });

  it.each([
    [
      "a refused connection (nothing listens: the database is down)",
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
    ],
    ["a server shutting down", Object.assign(new Error("the database system is shutting down"), { code: "57P03" })],
    ["a unique violation", Object.assign(new Error("duplicate key"), { code: "23505" })],
    ["nothing", undefined],
  ])("does not call %s a failover", (_, error) => {
    expect(isFailoverSign(error)).toBe(false);
  });

  it("stops walking a cycle of causes", () => {
    const a: { message: string; cause?: unknown } = { message: "a" };
    a.cause = { message: "b", cause: a };
    expect(isFailoverSign(a)).toBe(false);
  });
});
