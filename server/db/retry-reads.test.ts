import { describe, expect, it } from "vitest";
import { READ_RETRY_DELAY_MS, retryRawReadOnce, retryReadOnce } from "./retry-reads";

const cut = () => new Error("Connection terminated unexpectedly");
const noWait = async () => {};

function flaky<T>(failures: Error[], value: T) {
  let calls = 0;
  return {
    run: async () => {
      const failure = failures[calls++];
      if (failure) throw failure;
      return value;
    },
    calls: () => calls,
  };
}

describe("retryReadOnce", () => {
  it("asks a read again once after a lost connection, after the wait", async () => {
    const waits: number[] = [];
    const query = flaky([cut()], ["row"]);
    expect(await retryReadOnce("findMany", query.run, async (ms) => waits.push(ms))).toEqual(["row"]);
    expect(query.calls()).toBe(2);
    expect(waits).toEqual([READ_RETRY_DELAY_MS]);
  });

  it("never asks a write again: the COMMIT may have been sent", async () => {
    for (const operation of ["create", "update", "upsert", "delete", "updateMany", "createMany", "deleteMany"]) {
      const query = flaky([cut()], 1);
      await expect(retryReadOnce(operation, query.run, noWait)).rejects.toThrow("Connection terminated");
      expect(query.calls(), operation).toBe(1);
    }
  });

  it("does not retry a read that failed for another reason", async () => {
    const query = flaky([Object.assign(new Error("syntax"), { code: "42601" })], 1);
    await expect(retryReadOnce("findFirst", query.run, noWait)).rejects.toThrow("syntax");
    expect(query.calls()).toBe(1);
  });

  it("a second failure gives the first error (the one that says why)", async () => {
    const query = flaky([cut(), new Error("Transaction already closed")], 1);
    await expect(retryReadOnce("count", query.run, noWait)).rejects.toThrow("Connection terminated");
    expect(query.calls()).toBe(2);
  });

  it("asks a raw read again once after a lost connection, and not after another failure", async () => {
    const lost = flaky([cut()], [{ id: "node_1" }]);
    expect(await retryRawReadOnce(lost.run, noWait)).toEqual([{ id: "node_1" }]);
    expect(lost.calls()).toBe(2);
    const refused = flaky([Object.assign(new Error("syntax"), { code: "42601" })], 1);
    await expect(retryRawReadOnce(refused.run, noWait)).rejects.toThrow("syntax");
    expect(refused.calls()).toBe(1);
  });
});
