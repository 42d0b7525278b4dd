/**
 * A sleep another part of the loop can cut short: `nap(ms)` resolves after
 * `ms` or at the next `wake()`, whichever comes first (a finished attempt or a
 * stop request wakes the loop without waiting out its poll interval). A wake
 * while the loop is not napping makes its next nap return at once.
 */
export function napper() {
  let wake: (() => void) | null = null;
  let woken = false;
  return {
    nap(ms: number): Promise<void> {
      if (woken) {
        woken = false;
        return Promise.resolve();
      }
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          wake = null;
          resolve();
        };
        const timer = setTimeout(done, ms);
        wake = done;
      });
    },
    wake(): void {
      if (wake) wake();
      else woken = true;
    },
  };
}
