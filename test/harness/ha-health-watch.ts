// /api/health watched through a fault: the sequence of its `database` check,
// each value once per run of equal answers (ok → failing over → ok).

export interface HealthWatch {
  /** keeps watching until the check says ok (or `timeoutMs`), then stops and returns what was seen */
  untilOk(timeoutMs: number): Promise<string[]>;
}

export function watchHealth(baseUrl: string, everyMs = 250): HealthWatch {
  const seen: string[] = [];
  let stop = false;
  const loop = (async () => {
    while (!stop) {
      try {
        const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(5_000) });
        const body = (await response.json()) as { checks?: { database?: string } };
        const database = body.checks?.database ?? `HTTP ${response.status}`;
        if (seen.at(-1) !== database) seen.push(database);
        if (response.status === 503 && !response.headers.get("retry-after")) seen.push("503 without Retry-After");
      } catch {
        if (seen.at(-1) !== "no answer") seen.push("no answer");
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async untilOk(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (seen.at(-1) !== "ok" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, everyMs));
      stop = true;
      await loop;
      return seen;
    },
  };
}
