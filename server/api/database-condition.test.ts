import { describe, expect, it } from "vitest";
import { databaseCondition } from "./database-condition";

describe("databaseCondition", () => {
  it.each([
    ["a refused connection", Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" })],
    ["a driver adapter error in cause", new Error("wrapped", { cause: { kind: "DatabaseNotReachable" } })],
    // Prisma 7 reports a failing $queryRaw as P2010 with the adapter's error in meta
    [
      "P2010 with meta.driverAdapterError",
      Object.assign(new Error("raw query failed"), {
        code: "P2010",
        meta: { driverAdapterError: { cause: { kind: "DatabaseNotReachable" } } },
      }),
    ],
    ["too many connections", { code: "53300" }],
    // seen in issue 14: a pooled client whose socket broke when PostgreSQL restarted (fast)
    ["a broken pooled client", new Error("Client has encountered a connection error and is not queryable")],
    ["a client closed under a query", new Error("Client was closed and is not queryable")],
    ["a connection ended mid-query", new Error("Connection terminated unexpectedly")],
    ["a pool that could not connect in time", new Error("timeout exceeded when trying to connect")],
    ["an administrator shutdown", Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" })],
    // issue 37: during a failover HAProxy's leader port may still reach the demoted primary
    ["a member that is read-only", Object.assign(new Error("cannot execute UPDATE in a read-only transaction"), { code: "25006" })],
    ["a server starting up", Object.assign(new Error("the database system is starting up"), { code: "57P03" })],
  ])("calls %s unreachable", (_, error) => {
    expect(databaseCondition(error)).toBe("unreachable");
  });

  it.each([
    // the message Prisma 7.10 gave a join that queued on its token's row past the timeout (bench, 32 connections)
    [
      "an interactive transaction past its timeout",
      Object.assign(
        new Error(
          "Transaction API error: A query cannot be executed on an expired transaction. The timeout for this transaction was 5000 ms, however 5408 ms passed since the start of the transaction.",
        ),
        { code: "P2028" },
      ),
    ],
    [
      "no connection to start a transaction on in time",
      Object.assign(new Error("Transaction API error: Unable to start a transaction in the given time."), { code: "P2028" }),
    ],
    [
      "a lock wait past lock_timeout",
      Object.assign(new Error("raw query failed"), {
        code: "P2010",
        meta: { driverAdapterError: { cause: { kind: "postgres", code: "55P03" } } },
      }),
    ],
    // seen in CI: a webhook subscription's delete against a worker (a deadlock; the delete now takes the worker's order)
    [
      "a write conflict or deadlock in a Prisma operation",
      Object.assign(new Error("Transaction failed due to a write conflict or a deadlock. Please retry your transaction"), {
        code: "P2034",
      }),
    ],
    [
      "a deadlock in a raw query",
      Object.assign(new Error("raw query failed"), {
        code: "P2010",
        meta: { driverAdapterError: { cause: { kind: "postgres", code: "40P01" } } },
      }),
    ],
    ["a serialization failure", { code: "40001" }],
  ])("calls %s busy", (_, error) => {
    expect(databaseCondition(error)).toBe("busy");
  });

  it.each([
    ["a plain bug", new TypeError("x is undefined")],
    [
      "a raw query syntax error",
      Object.assign(new Error("raw query failed"), {
        code: "P2010",
        meta: { driverAdapterError: { cause: { kind: "postgres", code: "42601" } } },
      }),
    ],
    ["a unique violation", { code: "P2002" }],
    // using a transaction after it ended is our bug, not load
    [
      "a transaction used after it closed",
      Object.assign(
        new Error("Transaction API error: Transaction already closed: A query cannot be executed on a committed transaction."),
        { code: "P2028" },
      ),
    ],
    ["nothing", undefined],
  ])("does not mistake %s for either", (_, error) => {
    expect(databaseCondition(error)).toBeUndefined();
  });
});
