import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

// The audit the issue asks for (issue 15 item 2): WCAG 2.1 AA and axe's best practices.
const AUDITED_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

type Violations = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"];

/** One line a violation: the rule, its impact and where, so a failure says what to fix without opening the trace. */
export function describeViolations(violations: Violations): string {
  return violations
    .map((violation) => {
      const targets = violation.nodes.map(
        (node) => `${node.target.join(" ")}${node.failureSummary ? ` (${node.failureSummary.replace(/\s+/g, " ")})` : ""}`,
      );
      return `${violation.id} [${violation.impact}] ${violation.help}\n    ${targets.join("\n    ")}`;
    })
    .join("\n");
}

/** Waits for CSS animations and transitions to end: a dialog fading in would be judged on its half-faded colours. */
async function settled(page: Page) {
  await page.evaluate(() => {
    // An endless one (the loading skeleton's pulse) never finishes; it is not waited for.
    const ending = document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity);
    return Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)));
  });
}

// What the dark scheme can change: it is CSS custom properties of colour only
// (app/globals.css), so the rules that read colours are the ones that can
// judge it differently from the light audit of the same page.
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/**
 * Audits the whole page as it stands (or only the elements `within` selects)
 * and expects no violation; `label` says in which state, when a test audits several.
 */
export async function expectNoAxeViolations(page: Page, label?: string, only: "all-rules" | "colour-rules" = "all-rules", within?: string) {
  await settled(page);
  // Legacy mode runs axe in the page itself. The default opens a blank page
  // for every audit to merge the results of cross-origin frames, which cost
  // more than the audit (3.5 s against 1.6 s for the pools overview; about a
  // third of the Playwright run, issue 33). The console has no frames; should
  // one appear, this fails rather than leave it unaudited.
  expect(page.frames(), "axe runs in legacy mode, which audits no cross-origin frame").toHaveLength(1);
  const builder = new AxeBuilder({ page }).setLegacyMode(true);
  // Only violations are read: axe then keeps one example node per passed or
  // inapplicable rule instead of every node, less to collect and send back
  // (measured: the accessibility spec's CPU, 7% less).
  builder.options({ resultTypes: ["violations"] });
  if (within) builder.include(within);
  if (only === "colour-rules") builder.withRules(COLOUR_RULES);
  else builder.withTags(AUDITED_TAGS);
  const { violations } = await builder.analyze();
  expect(violations, `${label ? `${label}: ` : ""}${describeViolations(violations)}`).toEqual([]);
}

/**
 * The page as it stands, audited whole in the light colour scheme and then in
 * the dark one. The dark theme is CSS only (app/globals.css, a
 * prefers-color-scheme media query), so switching the emulated scheme restyles
 * the same page in the same state: one page load and one set-up for both
 * audits, where a test per scheme paid for each twice (issue 33). The dark
 * audit runs the colour rules only: the markup, names and roles it would
 * check again are the light audit's, unchanged.
 */
export async function expectNoAxeViolationsInBothSchemes(page: Page) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches)).toBe(colorScheme === "dark");
    await expectNoAxeViolations(page, `${colorScheme} mode`, colorScheme === "dark" ? "colour-rules" : "all-rules");
  }
}
