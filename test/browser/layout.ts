import { expect, type Page } from "@playwright/test";

/**
 * The page's own width against the viewport's (issue 15 item 1): wider means
 * the page scrolls sideways. clientWidth leaves out a vertical scrollbar, so
 * a page that fits only under a scrollbar-less viewport still fails.
 */
export async function expectNoSidewaysScroll(page: Page, what: string) {
  const { documentWidth, viewportWidth } = await page.evaluate(() => ({
    documentWidth: document.documentElement.scrollWidth,
    viewportWidth: document.documentElement.clientWidth,
  }));
  expect(documentWidth, `${what}: document ${documentWidth}px wide in a ${viewportWidth}px viewport`).toBeLessThanOrEqual(viewportWidth);
}
