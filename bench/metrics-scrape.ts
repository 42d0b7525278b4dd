import parsePrometheusTextFormat from "parse-prometheus-text-format";

// Issue #38: GET /metrics when it matters — right after start, and while the
// app is under load — answering 200 within 1 s, its counters never going
// backwards between scrapes. Scraped as Prometheus would, through a text
// parser.

export interface ScrapeFigures {
  scrapes: number;
  /** answers other than 200 (or no answer) */
  failed: number;
  p50Ms: number;
  maxMs: number;
  /** scrapes whose bc_method_calls_total, summed over its series, was below the previous scrape's */
  backwards: number;
}

export const SCRAPE_TARGET_MS = 1_000;

interface Scrape {
  ok: boolean;
  ms: number;
  calls: number;
}

async function scrapeOnce(baseUrl: string, token: string): Promise<Scrape> {
  const started = performance.now();
  try {
    const response = await fetch(`${baseUrl}/metrics`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    const ms = performance.now() - started;
    if (response.status !== 200) return { ok: false, ms, calls: Number.NaN };
    const family = parsePrometheusTextFormat(text).find((candidate) => candidate.name === "bc_method_calls_total");
    const calls = (family?.metrics ?? []).reduce((sum, metric) => sum + Number((metric as { value?: string }).value ?? 0), 0);
    return { ok: true, ms, calls };
  } catch {
    return { ok: false, ms: performance.now() - started, calls: Number.NaN };
  }
}

function figuresOf(scrapes: Scrape[]): ScrapeFigures {
  const times = scrapes.map((scrape) => scrape.ms).sort((a, b) => a - b);
  const counted = scrapes.filter((scrape) => scrape.ok).map((scrape) => scrape.calls);
  return {
    scrapes: scrapes.length,
    failed: scrapes.filter((scrape) => !scrape.ok).length,
    p50Ms: times[Math.floor(times.length / 2)] ?? 0,
    maxMs: times.at(-1) ?? 0,
    backwards: counted.filter((calls, index) => index > 0 && calls < counted[index - 1]!).length,
  };
}

/** One scrape, as a Prometheus server's first after the app (re)started. */
export async function firstScrape(baseUrl: string, token: string): Promise<ScrapeFigures> {
  return figuresOf([await scrapeOnce(baseUrl, token)]);
}

/** Scrapes every `everyMs` (one at a time, as Prometheus does) while `work` runs; the work's result and the scrapes' figures. */
export async function scrapeDuring<T>(
  baseUrl: string,
  token: string,
  work: Promise<T>,
  everyMs = 500,
): Promise<{ result: T; scrapes: ScrapeFigures }> {
  const scrapes: Scrape[] = [];
  let running = true;
  const scraping = (async () => {
    while (running) {
      scrapes.push(await scrapeOnce(baseUrl, token));
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  let result: T;
  try {
    result = await work;
  } finally {
    running = false;
    await scraping;
  }
  return { result, scrapes: figuresOf(scrapes) };
}

export function scrapeVerdict(name: string, figures: ScrapeFigures): string {
  const held = figures.failed === 0 && figures.backwards === 0 && figures.maxMs <= SCRAPE_TARGET_MS;
  return (
    `${name}: ${figures.scrapes} scrape(s), p50 ${figures.p50Ms.toFixed(0)} ms, max ${figures.maxMs.toFixed(0)} ms, ` +
    `${figures.failed} failed, ${figures.backwards} backwards — ${held ? "✓ held" : "✗ missed"} (200 within ${SCRAPE_TARGET_MS} ms, never backwards)`
  );
}
