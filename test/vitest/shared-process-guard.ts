import { decodeTime } from "ulid";
import { afterAll, beforeAll, expect } from "vitest";
import { newId } from "@/lib/ids";

// The API test files share their worker processes (vitest.config.ts: the
// project does not isolate them), so what one file leaves in a module's
// state the next file meets. The state that has bitten is the id clock
// (lib/ids.ts): ids are monotonic within a process, so a file that makes
// ids at a future `now` (a sweep "a minute later") makes every later file's
// ids, and so its events' times, that far ahead: an event a minute old by
// its id when it was just written. This fails the file that does it.

/** How far the process's next id is ahead of real time, in ms (≤ 0: not ahead). */
const idClockLead = () => decodeTime(newId("evt").slice("evt_".length).toUpperCase()) - Date.now();

let leadBefore = 0;
beforeAll(() => {
  leadBefore = Math.max(0, idClockLead());
});
afterAll(() => {
  expect(
    idClockLead() - leadBefore,
    "this file pushed the process's id clock ahead of real time (it made ids at a future `now`): the next file in this worker would make its ids in the future. Make them at the present time (e.g. the sweep's graceMs rather than a later `now`)",
  ).toBeLessThan(1_000);
});
