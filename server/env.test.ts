import { describe, expect, it } from "vitest";
import { InvalidEnvironmentError, parseEnv } from "./env";

// The environment fails fast, naming the variable; here the inventory's retention window (SPEC G5).
describe("BC_INVENTORY_RETENTION_DAYS", () => {
  it("defaults to 365 days and takes a whole number of days", () => {
    expect(parseEnv({}).BC_INVENTORY_RETENTION_DAYS).toBe(365);
    expect(parseEnv({ BC_INVENTORY_RETENTION_DAYS: "30" }).BC_INVENTORY_RETENTION_DAYS).toBe(30);
  });

  it.each(["0", "-1", "1.5", "a year"])("%j is refused, naming the variable", (value) => {
    const refusal = (() => {
      try {
        parseEnv({ BC_INVENTORY_RETENTION_DAYS: value });
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(InvalidEnvironmentError);
    expect(refusal).toMatchObject({ variable: "BC_INVENTORY_RETENTION_DAYS" });
  });
});
