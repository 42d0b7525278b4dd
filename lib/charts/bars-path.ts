// A chart's bars of one series as a single SVG path: one element per series
// rather than one per bar. The overview draws a chart for each of the user's
// pools, 24 hours and two series each: with <rect>s, 48 elements a pool that
// the browser lays out and every audit walks.

export interface BarBox {
  x: number;
  /** the bar's top edge (SVG y grows downwards) */
  top: number;
  width: number;
  height: number;
}

/** Two decimals are finer than any screen draws this chart, and keep the path short. */
const short = (n: number) => String(Math.round(n * 100) / 100);

/** Each bar a closed rectangle, `M x,top h width v height h -width z`; bars of no height draw nothing. */
export function barsPath(bars: BarBox[]): string {
  return bars
    .filter((bar) => bar.height > 0 && bar.width > 0)
    .map((bar) => `M${short(bar.x)},${short(bar.top)}h${short(bar.width)}v${short(bar.height)}h${short(-bar.width)}z`)
    .join("");
}
