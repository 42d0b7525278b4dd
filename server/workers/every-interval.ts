import "server-only";
import type { BackgroundWorker } from "./background-worker";
import { napper } from "./nap";

/**
 * A worker that runs `pass` at start and then every `intervalMs` until
 * stopped; a pass that throws is handed to `onError` and the loop goes on.
 * stop() lets the pass in flight finish.
 */
export function everyInterval(intervalMs: number, pass: () => Promise<void>, onError: (error: unknown) => void): BackgroundWorker {
  const sleep = napper();
  let stopping = false;
  const loop = (async () => {
    while (!stopping) {
      try {
        await pass();
      } catch (error) {
        onError(error);
      }
      if (!stopping) await sleep.nap(intervalMs);
    }
  })();
  return {
    async stop() {
      stopping = true;
      sleep.wake();
      await loop;
    },
  };
}
