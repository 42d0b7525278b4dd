import { describe, expect, it } from "vitest";
import { Prisma } from "./generated/client";
import { isUniqueViolation } from "./unique-violation";

const prismaError = (code: string, meta?: Record<string, unknown>) =>
  new Prisma.PrismaClientKnownRequestError("failed", { code, clientVersion: "test", meta });

describe("isUniqueViolation", () => {
  it.each([
    ["pg's own error (SQLSTATE 23505)", Object.assign(new Error("duplicate key value"), { code: "23505" })],
    ["a Prisma model call (P2002)", prismaError("P2002")],
    [
      "Prisma's raw SQL, the adapter's kind",
      prismaError("P2010", { driverAdapterError: { cause: { kind: "UniqueConstraintViolation" } } }),
    ],
    ["Prisma's raw SQL, the original code", prismaError("P2010", { driverAdapterError: { cause: { originalCode: "23505" } } })],
  ])("is true for %s", (_, error) => {
    expect(isUniqueViolation(error)).toBe(true);
  });

  it.each([
    ["another SQLSTATE", Object.assign(new Error("deadlock"), { code: "40P01" })],
    ["Prisma's raw SQL failing otherwise", prismaError("P2010", { driverAdapterError: { cause: { originalCode: "40001" } } })],
    ["a record not found", prismaError("P2025")],
    ["a plain error", new Error("boom")],
    ["nothing", undefined],
  ])("is false for %s", (_, error) => {
    expect(isUniqueViolation(error)).toBe(false);
  });
});
