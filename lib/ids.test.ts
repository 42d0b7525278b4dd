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

  it("draws the random part afresh for each millisecond, over many blocks of random bytes, from the whole alphabet", () => {
    // ahead of every id made so far (the clock is monotonic: an earlier time would continue the last id)
    const start = Date.now() + 10_000;
    // 2,000 ids of 16 random characters: about 31 refills of the 1 KiB block
    const randomParts = Array.from({ length: 2_000 }, (_, index) => newId("req", start + index).slice(-16));
    expect(randomParts.every((part) => /^[0-9a-hjkmnp-tv-z]{16}$/.test(part))).toBe(true);
    expect(new Set(randomParts).size).toBe(randomParts.length);
    expect(new Set(randomParts.join("")).size).toBe(32);
  });
});
