import { Counter, Gauge, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { clusterMetrics, COLLECT, SNAPSHOT } from "./cluster-metrics.mjs";

// The primary's sum of its app processes' metrics (issue #38: a scrape answers
// within a second right after start, and counters never go backwards when a
// process is replaced). Each fake process has a real prom-client registry.

function fakeProcess(id: number, options: { answers: boolean }) {
  const registry = new Registry();
  const calls = new Counter({ name: "bc_method_calls_total", help: "calls", labelNames: ["code"], registers: [registry] });
  const connections = new Gauge({ name: "bc_db_pool_connections", help: "connections", registers: [registry] });
  const process = {
    id,
    registry,
    answers: options.answers,
    calls,
    connections,
    isConnected: () => true,
    send(message: { type: string; id: number }) {
      if (message.type !== COLLECT || !process.answers) return;
      void registry
        .getMetricsAsJSON()
        .then((metrics) =>
          setTimeout(() => primary.onMessage(process, { type: SNAPSHOT, id: message.id, metrics: structuredClone(metrics) }), 5),
        );
    },
  };
  return process;
}

let primary: ReturnType<typeof clusterMetrics>;
function primaryOf(processes: ReturnType<typeof fakeProcess>[], waitMs = 300) {
  primary = clusterMetrics({ workers: () => processes, waitMs });
  return primary;
}

const valueOf = (text: string, series: string) => {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.split(" ")[1]);
};

describe("the primary's metrics of every app process", () => {
  it("sums the processes that answer; one that never answers (just forked) costs waitMs, not a failed scrape", async () => {
    const first = fakeProcess(1, { answers: true });
    const forked = fakeProcess(2, { answers: false });
    first.calls.inc({ code: "200" }, 5);
    const metrics = primaryOf([first, forked]);
    const started = performance.now();
    const text = await metrics.text();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(valueOf(text, 'bc_method_calls_total{code="200"}')).toBe(5);

    forked.answers = true;
    forked.calls.inc({ code: "200" }, 2);
    forked.connections.set(3);
    first.connections.set(4);
    const both = await metrics.text();
    expect(valueOf(both, 'bc_method_calls_total{code="200"}')).toBe(7);
    expect(valueOf(both, "bc_db_pool_connections")).toBe(7);
  });

  it("all answering: the scrape does not wait for the timeout", async () => {
    const metrics = primaryOf([fakeProcess(1, { answers: true }), fakeProcess(2, { answers: true })], 5_000);
    const started = performance.now();
    await metrics.text();
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("a process that stops answering counts with its last snapshot", async () => {
    const busy = fakeProcess(1, { answers: true });
    busy.calls.inc({ code: "200" }, 9);
    const metrics = primaryOf([busy]);
    expect(valueOf(await metrics.text(), 'bc_method_calls_total{code="200"}')).toBe(9);
    busy.answers = false;
    busy.calls.inc({ code: "200" }, 1);
    expect(valueOf(await metrics.text(), 'bc_method_calls_total{code="200"}')).toBe(9);
  });

  it("processes that exit keep their counters in the sum (never backwards); their gauges go", async () => {
    const processes = [fakeProcess(1, { answers: true }), fakeProcess(2, { answers: true })];
    processes[0]!.calls.inc({ code: "200" }, 10);
    processes[0]!.connections.set(5);
    processes[1]!.calls.inc({ code: "200" }, 1);
    processes[1]!.connections.set(2);
    const metrics = primaryOf(processes);
    expect(valueOf(await metrics.text(), 'bc_method_calls_total{code="200"}')).toBe(11);

    // the first dies; a scrape at once (before the merge) already counts it
    const [dead] = processes.splice(0, 1);
    const merged = metrics.onExit(dead!);
    const during = await metrics.text();
    expect(valueOf(during, 'bc_method_calls_total{code="200"}')).toBe(11);
    expect(valueOf(during, "bc_db_pool_connections")).toBe(2);
    await merged;

    // a crash loop: three replacements each count and die; the sum only grows
    let previous = 11;
    for (const id of [3, 4, 5]) {
      const replacement = fakeProcess(id, { answers: true });
      replacement.calls.inc({ code: "200" }, id);
      processes.push(replacement);
      const now = valueOf(await metrics.text(), 'bc_method_calls_total{code="200"}')!;
      expect(now).toBe(previous + id);
      processes.splice(processes.indexOf(replacement), 1);
      void metrics.onExit(replacement);
      previous = now;
    }
    await metrics.onExit(fakeProcess(99, { answers: false })); // never answered: nothing to keep
    expect(valueOf(await metrics.text(), 'bc_method_calls_total{code="200"}')).toBe(11 + 3 + 4 + 5);
  });

  it("a snapshot that arrives after its process exited is not counted again", async () => {
    const dying = fakeProcess(1, { answers: true });
    dying.calls.inc({ code: "200" }, 4);
    const processes = [dying];
    const metrics = primaryOf(processes);
    expect(valueOf(await metrics.text(), 'bc_method_calls_total{code="200"}')).toBe(4);
    processes.splice(0, 1);
    await metrics.onExit(dying);
    dying.isConnected = () => false;
    metrics.onMessage(dying, { type: SNAPSHOT, id: 0, metrics: structuredClone(await dying.registry.getMetricsAsJSON()) });
    expect(valueOf(await metrics.text(), 'bc_method_calls_total{code="200"}')).toBe(4);
  });

  it("no process at all: an empty answer at once", async () => {
    expect((await primaryOf([]).text()).trim()).toBe("");
  });
});
