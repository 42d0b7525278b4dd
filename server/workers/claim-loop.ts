import "server-only";
import type { BackgroundWorker } from "./background-worker";
import { napper } from "./nap";

export interface ClaimLoopOptions<T> {
  /** how often an idle loop looks again; also the least time between two scans */
  pollMs: number;
  /** attempts in flight at once */
  concurrency: number;
  /** finds new work (new events, overdue requests): at most once per pollMs */
  scan: () => Promise<void>;
  /** claims up to `limit` due items (SKIP LOCKED, leased) */
  claim: (limit: number) => Promise<T[]>;
  /** one attempt at one claimed item, recorded before it resolves */
  attempt: (item: T) => Promise<void>;
  /** a pass (scan or claim) failed: the loop goes on after a nap */
  onPassError: (error: unknown) => void;
  /** an attempt threw (it could not be recorded): the item's lease brings it back */
  onAttemptError: (item: T, error: unknown) => void;
}

/**
 * The outbox worker's loop, as the webhook delivery worker runs it: scan for
 * new work, claim as many due items as there are free slots, attempt each
 * without waiting for the others, and nap when idle or full (a finished
 * attempt wakes it). stop() claims nothing more and waits for the attempts
 * in flight to be recorded.
 */
export function claimLoop<T>(options: ClaimLoopOptions<T>): BackgroundWorker {
  const { pollMs, concurrency } = options;
  const inFlight = new Set<Promise<void>>();
  const sleep = napper();
  let stopping = false;

  function launch(item: T): void {
    const running: Promise<void> = options
      .attempt(item)
      .catch((error: unknown) => options.onAttemptError(item, error))
      .finally(() => {
        inFlight.delete(running);
        sleep.wake(); // a slot is free
      });
    inFlight.add(running);
  }

  const loop = (async () => {
    let lastScan = -Infinity;
    while (!stopping) {
      let busy = false;
      try {
        const free = concurrency - inFlight.size;
        if (free > 0) {
          if (performance.now() - lastScan >= pollMs) {
            await options.scan();
            lastScan = performance.now();
          }
          // Claimed items are attempted even when a stop came meanwhile.
          const claimed = await options.claim(free);
          for (const item of claimed) launch(item);
          busy = claimed.length === free;
        }
      } catch (error) {
        options.onPassError(error);
      }
      if (!stopping && (!busy || inFlight.size >= concurrency)) await sleep.nap(pollMs);
    }
    await Promise.allSettled([...inFlight]);
  })();

  return {
    async stop() {
      stopping = true;
      sleep.wake();
      await loop;
    },
  };
}
