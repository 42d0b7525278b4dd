import { describe, expect, it } from "vitest";
import { poolSettingsInput } from "@/lib/pools/pool-settings-input";
import { parseInput } from "@/lib/validations/parse-input";
import { updateSettingsInput } from "./settings-schemas";

const pool = { tenantId: "acme", poolId: "gpu-a" };

describe("pools/update's notification settings", () => {
  it("keeps an omitted escalation apart from null (off)", () => {
    const omitted = parseInput(poolSettingsInput, pool);
    expect(omitted.ok && omitted.value.escalateAfterMinutes).toBeUndefined();
    expect(omitted.ok).toBe(true);
    expect(parseInput(poolSettingsInput, { ...pool, escalateAfterMinutes: null })).toEqual({
      ok: true,
      value: expect.objectContaining({ escalateAfterMinutes: null }),
    });
  });

  it("lowercases the addresses and keeps each once, in the order first given", () => {
    const parsed = parseInput(poolSettingsInput, { ...pool, escalationEmails: ["B@Example.test", "a@example.test", "b@example.TEST"] });
    expect(parsed).toMatchObject({ ok: true, value: { escalationEmails: ["b@example.test", "a@example.test"] } });
  });

  it("counts 20 addresses before de-duplicating: 21 entries are refused even if some repeat", () => {
    const emails = Array.from({ length: 21 }, () => "same@example.test");
    expect(parseInput(poolSettingsInput, { ...pool, escalationEmails: emails })).toEqual({
      ok: false,
      violations: [{ field: "escalationEmails", message: "must hold at most 20 addresses" }],
    });
  });
});

describe("notifications/updateSettings' input", () => {
  it("needs mode, which null sets back to the pool's default", () => {
    expect(parseInput(updateSettingsInput, { ...pool, mode: null })).toEqual({ ok: true, value: { ...pool, mode: null } });
    expect(parseInput(updateSettingsInput, pool)).toEqual({
      ok: false,
      violations: [{ field: "mode", message: "is required (null: back to the pool's default)" }],
    });
  });
});
