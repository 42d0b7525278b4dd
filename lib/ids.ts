import { encodeTime, monotonicFactory } from "ulid";

// Ids are a prefix and a lowercase Crockford-base32 ULID, so they sort by
// creation time (SPEC B1). Monotonic within a process: two ids made in the
// same millisecond still sort in the order they were made.
// ulid's own PRNG asks the CSPRNG for one byte per character, sixteen calls
// an id (a few percent of a published call's CPU, measured: issue #38); this
// one takes the bytes from a block of the same CSPRNG, refilled when used up.
function blockRandom(): () => number {
  const block = new Uint8Array(1024);
  let next = block.length;
  return () => {
    if (next === block.length) {
      globalThis.crypto.getRandomValues(block);
      next = 0;
    }
    return block[next++]! / 256;
  };
}

const nextUlid = monotonicFactory(blockRandom());

export type IdPrefix = "jreq" | "evt" | "usr" | "grant" | "node" | "req" | "disc" | "tpmk" | "tpmr" | "inv" | "tpmc" | "rule" | "natc";

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${nextUlid(now).toLowerCase()}`;
}

/** The smallest event id of millisecond `ms` (ids after it were made at or after `ms`): a time range as an id range. */
export function eventIdFloor(ms: number): string {
  return `evt_${encodeTime(Math.max(0, ms), 10).toLowerCase()}${"0".repeat(16)}`;
}
