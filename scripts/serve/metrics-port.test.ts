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
    isConnected: () => true,
    send(message: { type: string; id: number; authorization: string | null }) {
      if (message.type !== SCRAPE) return;
      asked.push(message.authorization);
      const answer = answerOf(message.authorization);
      if (answer) setTimeout(() => port.onMessage(process, { type: SCRAPE_ANSWER, id: message.id, ...answer }), delayMs);
    },
  };
  return process;
}

const TOKEN = "Bearer the-metrics-token";
const allowOnlyToken = (gauges: string) => (authorization: string | null): Answer =>
  authorization === TOKEN ? { access: "allowed", gauges } : { access: "unauthorized" };
const PROCESS_TEXT = "# TYPE bc_method_calls_total counter\nbc_method_calls_total 7\n";

let port: ReturnType<typeof metricsPort>;
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(processes: ReturnType<typeof fakeProcess>[], processText: () => Promise<string> = async () => PROCESS_TEXT) {
  port = metricsPort({ metrics: { text: processText }, readyWorkers: () => processes, timeoutMs: 300 });
  const listening = await port.listen(0, "127.0.0.1");
  server = listening;
  const base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  return (path = "/metrics", init: RequestInit = { headers: { authorization: TOKEN } }) => fetch(`${base}${path}`, init);
}

describe("the primary's metrics port", () => {
  it("the token: the processes' metrics, then the gauges one app process read, as Prometheus text", async () => {
    const get = await serve([fakeProcess(1, allowOnlyToken("bc_database_up 1\n"))]);
    const response = await get();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("version=0.0.4");
    expect(await response.text()).toBe(`${PROCESS_TEXT}\nbc_database_up 1\n`);
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
