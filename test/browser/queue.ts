import { expect, type Page } from "@playwright/test";

/** A request's row in the queue table, found by its (random) hostname. */
export const rowOf = (page: Page, hostname: string) => page.getByTestId("request-row").filter({ hasText: hostname });

export async function openQueue(page: Page, poolId: string, state?: string) {
  await page.goto(`/pools/${poolId}${state ? `?state=${state}` : ""}`);
  await expect(page.getByTestId("queue-loading")).toHaveCount(0);
}

/** Screenshots for people: e2e/output/screenshots/<name>.png */
export const screenshotPath = (name: string) => `e2e/output/screenshots/${name}.png`;
