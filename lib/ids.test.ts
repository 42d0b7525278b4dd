import { describe, expect, it } from "vitest";
import { newId } from "./ids";

describe("newId", () => {
  it("is the prefix and a 26-character lowercase Crockford ULID", () => {
    expect(newId("jreq")).toMatch(/^jreq_[0-9a-hjkmnp-tv-z]{26}$/);
  });

  it("sorts by creation, even within one millisecond", () => {
    const now = Date.now();
    const ids = Array.from({ length: 50 }, () => newId("evt", now));
    expect([...ids].sort()).toEqual(ids);
    const later = newId("evt", now + 1000);
    expect(later > ids[ids.length - 1]!).toBe(true);
  });
});
