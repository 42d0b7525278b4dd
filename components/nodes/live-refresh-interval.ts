/** How often a node page re-renders while its tab is visible (the browser tests move their clock by it). */
export const LIVE_REFRESH_MS = 15_000;
