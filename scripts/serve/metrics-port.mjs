// GET /metrics on a port of its own, answered by `npm start`'s primary
// (scripts/serve.mjs) when BC_METRICS_PORT is set (issue #38).
//
// On the app's port a scrape is one more request in a busy app process's
// queue: under 32 connections of load it waited behind the calls for up to
// 2.4 s before its own work began. The primary serves no calls, so here a
// scrape starts at once. It needs two things from the app processes, asked
// at the same time: their metrics (cluster-metrics.mjs: the freshest snapshot
// each sends within half a second) and the part only TypeScript knows — who
// may scrape (the bearer check) and the gauges read from the database. That
// part is asked of every ready process and the first answer is used, so one
// process frozen or busy (a long GC, a CPU-bound join) does not hold the
// scrape. When every app process is so loaded that none answers within the
// deadline, a bearer they have already let in is served the last gauges they
// read, and bc_database_gauges_age_seconds says how old those are: the
// token is fixed for the life of `npm start`, so their earlier yes to the
// same header still holds. A bearer never let in waits for their answer.
// Plain JavaScript: production runs it without the TypeScript toolchain.
import { createHash } from "node:crypto";
import http from "node:http";

/** The messages between the primary and an app process (server/metrics/primary-scrape.ts: keep in step). */
export const SCRAPE = "bc:metrics-scrape";
export const SCRAPE_ANSWER = "bc:metrics-scrape-answer";

const TEXT = { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" };
const PROMETHEUS_TEXT = { ...TEXT, "content-type": "text/plain; version=0.0.4; charset=utf-8" };
const UNAVAILABLE = { status: 503, headers: { ...TEXT, "retry-after": "5" } };

/** How old a scrape's database gauges are (only this port serves them from memory). */
const gaugesAgeText = (seconds) =>
  "# HELP bc_database_gauges_age_seconds How old this scrape's database gauges are: 0 when read for it; more when every app process was too busy to read them in time and the last ones read were served.\n" +
  `# TYPE bc_database_gauges_age_seconds gauge\nbc_database_gauges_age_seconds ${Number(seconds.toFixed(3))}\n`;

/**
 * @param {{
 *   metrics: { text(): Promise<string> },
 *   readyWorkers: () => Array<{ id: number, isConnected(): boolean, send(message: unknown): unknown }>,
 *   timeoutMs?: number,
 *   gaugeDeadlineMs?: number,
 * }} options
 */
export function metricsPort({ metrics, readyWorkers, timeoutMs = 2_000, gaugeDeadlineMs = 700 }) {
  /** scrape id → called with the first app process's answer */
  const waiting = new Map();
  let nextId = 0;
  /** the last gauges an app process read, and for which bearer (its SHA-256: no secret kept in memory) */
  let lastGauges = null;

  /** The first ready app process's answer: may this bearer scrape, and if so the database gauges' text. */
  async function askAppProcesses(authorization) {
    // right after a start the first process may answer the app's port a moment before its word reaches us
    const deadline = Date.now() + timeoutMs;
    let workers;
    while ((workers = readyWorkers().filter((worker) => worker.isConnected())).length === 0) {
      if (Date.now() >= deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const id = ++nextId;
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(null), deadline - Date.now()); // one deadline for both waits
      function settle(answer) {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(answer);
      }
      waiting.set(id, settle);
      for (const worker of workers) worker.send({ type: SCRAPE, id, authorization });
    });
  }

  /**
   * The app processes' answer for this bearer with its gauges' age in seconds:
   * fresh (0) when one answers within the deadline, else the last gauges if
   * this bearer was let in with them, else whatever they answer in the end.
   */
  async function accessWithGauges(authorization) {
    const key = createHash("sha256")
      .update(authorization ?? "")
      .digest("hex");
    const asked = askAppProcesses(authorization).then((answer) => {
      if (answer?.access === "allowed") lastGauges = { key, gauges: answer.gauges, at: Date.now() };
      return answer;
    });
    let timer;
    const late = new Promise((resolve) => (timer = setTimeout(() => resolve("late"), gaugeDeadlineMs)));
    const first = await Promise.race([asked, late]);
    clearTimeout(timer);
    if (first !== "late") return { access: first, ageSeconds: 0 };
    const remembered = lastGauges;
    if (remembered?.key === key)
      return { access: { access: "allowed", gauges: remembered.gauges }, ageSeconds: (Date.now() - remembered.at) / 1000 };
    return { access: await asked, ageSeconds: 0 };
  }

  /** One scrape's response: status, headers and body. */
  async function answer(authorization) {
    // both at once: the sum of the processes' metrics is thrown away unless the bearer may see it
    const [{ access, ageSeconds }, processText] = await Promise.all([accessWithGauges(authorization), metrics.text().catch(() => null)]);
    if (!access) return { ...UNAVAILABLE, body: "no app process is serving yet; try again shortly\n" };
    if (access.access === "not-served") return { status: 404, headers: TEXT, body: "not found\n" };
    if (access.access === "unauthorized")
      return { status: 401, headers: { ...TEXT, "www-authenticate": "Bearer" }, body: "a bearer token is required\n" };
    if (processText === null) return { ...UNAVAILABLE, body: "metrics are unavailable; try again shortly\n" };
    return { status: 200, headers: PROMETHEUS_TEXT, body: `${processText}\n${access.gauges}\n${gaugesAgeText(ageSeconds)}` };
  }

  return {
    /** An app process's message: an answer to a scrape. */
    onMessage(_worker, message) {
      if (message?.type !== SCRAPE_ANSWER) return;
      waiting.get(message.id)?.(message);
    },

    answer,

    /** Listens on port/host: GET /metrics, anything else 404. Resolves once listening, rejects if it cannot. */
    listen(port, host) {
      const server = http.createServer((request, response) => {
        const path = new URL(request.url ?? "/", "http://metrics").pathname;
        const reply = ({ status, headers, body }) => response.writeHead(status, headers).end(request.method === "HEAD" ? "" : body);
        if (path !== "/metrics") return reply({ status: 404, headers: TEXT, body: "not found\n" });
        if (request.method !== "GET" && request.method !== "HEAD")
          return reply({ status: 405, headers: { ...TEXT, allow: "GET, HEAD" }, body: "GET /metrics\n" });
        answer(request.headers.authorization ?? null).then(reply, () =>
          reply({ ...UNAVAILABLE, body: "metrics are unavailable; try again shortly\n" }),
        );
      });
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          resolve(server);
        });
      });
    },
  };
}
