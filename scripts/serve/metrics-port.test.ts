import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { metricsPort, SCRAPE, SCRAPE_ANSWER } from "./metrics-port.mjs";

// The primary's metrics port (issue #38): a scrape that does not queue behind
// the calls in a busy app process. The app processes are fakes that answer the
// primary's question as server/metrics/primary-scrape.ts does (its own test:
// primary-scrape.test.ts); the HTTP side is real.

type Answer = { access: "allowed" | "unauthorized" | "not-served"; gauges?: string };

function fakeProcess(id: number, answerOf: (authorization: string | null) => Answer | null, delayMs = 5) {
  const asked: (string | null)[] = [];
  const process = {
    id,
    asked,
    delayMs,
    /** the primary it belongs to (set by serve): a late answer never reaches the next test's */
    port: undefined as ReturnType<typeof metricsPort> | undefined,
    isConnected: () => true,
    send(message: { type: string; id: number; authorization: string | null }) {
      if (message.type !== SCRAPE) return;
      asked.push(message.authorization);
      const answer = answerOf(message.authorization);
      if (answer) setTimeout(() => process.port!.onMessage(process, { type: SCRAPE_ANSWER, id: message.id, ...answer }), process.delayMs);
    },
  };
  return process;
}

const TOKEN = "Bearer the-metrics-token";
const allowOnlyToken =
  (gauges: string) =>
  (authorization: string | null): Answer =>
    authorization === TOKEN ? { access: "allowed", gauges } : { access: "unauthorized" };
const PROCESS_TEXT = "# TYPE bc_method_calls_total counter\nbc_method_calls_total 7\n";

const gaugesAge = (text: string) => Number(/^bc_database_gauges_age_seconds (\S+)$/m.exec(text)?.[1]);

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(
  processes: ReturnType<typeof fakeProcess>[],
  processText: () => Promise<string> = async () => PROCESS_TEXT,
  gaugeDeadlineMs = 700,
) {
  const port = metricsPort({ metrics: { text: processText }, readyWorkers: () => processes, timeoutMs: 300, gaugeDeadlineMs });
  for (const process of processes) process.port = port;
  const listening = await port.listen(0, "127.0.0.1");
  server = listening;
  const base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  return (path = "/metrics", init: RequestInit = { headers: { authorization: TOKEN } }) => fetch(`${base}${path}`, init);
}

describe("the primary's metrics port", () => {
  it("the token: the processes' metrics, then the gauges one app process read for this scrape, as Prometheus text", async () => {
    const get = await serve([fakeProcess(1, allowOnlyToken("bc_database_up 1\n"))]);
    const response = await get();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("version=0.0.4");
    const text = await response.text();
    expect(text.startsWith(`${PROCESS_TEXT}\nbc_database_up 1\n`)).toBe(true);
    expect(gaugesAge(text)).toBe(0);
  });

  it("every app process too busy to answer by the deadline: a bearer they let in gets the last gauges, with their age", async () => {
    let read = 0;
    const busy = fakeProcess(1, (authorization) =>
      authorization === TOKEN ? { access: "allowed", gauges: `gauges ${++read}\n` } : { access: "unauthorized" },
    );
    const get = await serve([busy], undefined, 100);
    expect(await (await get()).text()).toContain("gauges 1\n");
    await new Promise((resolve) => setTimeout(resolve, 50));
    busy.delayMs = 250; // past the 100 ms deadline, within the 300 ms timeout
    const started = performance.now();
    const response = await get();
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(240); // not waiting for the busy process
    const text = await response.text();
    expect(text).toContain("gauges 1\n"); // the last read, not this scrape's (2), which came too late
    expect(text).toContain(PROCESS_TEXT);
    expect(gaugesAge(text)).toBeGreaterThanOrEqual(0.05);
  });

  it("a bearer they never let in is not served from memory: it waits for their answer", async () => {
    const busy = fakeProcess(1, allowOnlyToken("gauges\n"));
    const get = await serve([busy], undefined, 100);
    expect((await get()).status).toBe(200); // the token, let in
    busy.delayMs = 200;
    const wrong = await get("/metrics", { headers: { authorization: "Bearer a-guess" } });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain("bc_");
  });

  it("the bearer is checked by the app process's rule: a wrong one is 401, no token configured is 404", async () => {
    const wrong = await (await serve([fakeProcess(1, allowOnlyToken("g"))]))("/metrics", { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe("Bearer");
    expect(await wrong.text()).not.toContain("bc_method_calls_total");
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const unserved = await (await serve([fakeProcess(1, () => ({ access: "not-served" }))]))();
    expect(unserved.status).toBe(404);
  });

  it("the first app process to answer is used: one that never answers (frozen, busy) does not hold the scrape", async () => {
    const frozen = fakeProcess(1, () => null);
    const get = await serve([frozen, fakeProcess(2, allowOnlyToken("bc_database_up 1\n"), 20)]);
    const started = performance.now();
    const response = await get();
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(250); // the timeout is 300 ms
    expect(frozen.asked).toEqual([TOKEN]); // it was asked too
  });

  it("no app process serving yet, or none answering in time: 503 with Retry-After", async () => {
    const none = await (await serve([]))();
    expect(none.status).toBe(503);
    expect(none.headers.get("retry-after")).toBe("5");
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const silent = await (await serve([fakeProcess(1, () => null)]))();
    expect(silent.status).toBe(503);
    expect(await silent.text()).toMatch(/try again/);
  });

  it("the processes' sum failing is a 503, not a scrape without counters", async () => {
    const get = await serve([fakeProcess(1, allowOnlyToken("g"))], () => Promise.reject(new Error("aggregation failed")));
    expect((await get()).status).toBe(503);
  });

  it("only GET /metrics: another path is 404, another method 405", async () => {
    const get = await serve([fakeProcess(1, allowOnlyToken("g"))]);
    expect((await get("/")).status).toBe(404);
    expect((await get("/api/compute/joinRequests/list")).status).toBe(404);
    const post = await get("/metrics", { method: "POST", headers: { authorization: TOKEN } });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });
});
