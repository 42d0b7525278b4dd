import type pg from "pg";
import { BENCH_BEARER } from "./workload/dataset";
import { checkSameNodeAnswers } from "./check-same-node-answers";
import type { Figures } from "./figures";
import type { Endpoint } from "./http-floor/endpoint";
import { httpLoad } from "./http-load";
import { measureRow } from "./measure-row";
import {
  createBenchNodes,
  listNodesBody,
  makeFleetDue,
  NODE_COUNTS,
  NODE_HISTORY,
  reportBody,
  tokensFor,
  type BenchNodes,
} from "./node-scenario";
import { nodePageWeight, type PageWeight } from "./page-weight";
import type { Row } from "./report";

/** The app and its two floors (bench/http-floor, server/bench-floor), all running. */
export interface NodePhaseEndpoints {
  app: Endpoint;
  httpFloor: Endpoint;
  nextFloor: Endpoint;
}

interface NodePhaseOptions {
  client: pg.Client;
  baseUrl: string;
  endpoints: NodePhaseEndpoints;
  rows: Row[];
  smoke: boolean;
  seconds: number;
  connectionsList: number[];
}

/**
 * SPEC D1–D3 at fleet size, for each fleet (10,000 and 100,000 nodes, each
 * node with NODE_HISTORY snapshots; a smoke run: 1,000 with 2): the daemon's
 * frequent unchanged reports (each side to a fleet made due first: every
 * report writes lastSeenAt and lastReportedAt, as a five-minute daemon's does)
 * and a pool's node list, each beside both floors
 * (checked first to answer the app's bytes); then changed reports (the app
 * alone); then, after the last fleet, a node page's weight, its node having
 * a history by then.
 */
export async function measureNodePhase(options: NodePhaseOptions): Promise<PageWeight> {
  const fleets = options.smoke ? [{ count: 1_000, history: 2 }] : NODE_COUNTS.map((count) => ({ count, history: NODE_HISTORY }));
  let nodes: BenchNodes | undefined;
  for (const fleet of fleets) nodes = await measureFleet(options, fleet.count, fleet.history);
  const weight = await nodePageWeight(options.baseUrl, nodes!.poolId, nodes!.ids[0]!);
  console.log(
    `Node page ${weight.path}: ${weight.scripts} scripts, ${(weight.gzipBytes / 1000).toFixed(1)} kB gzipped (${(weight.rawBytes / 1000).toFixed(1)} kB raw)`,
  );
  return weight;
}

async function measureFleet(options: NodePhaseOptions, count: number, history: number): Promise<BenchNodes> {
  const { client, rows, seconds, smoke, connectionsList } = options;
  const { app, httpFloor, nextFloor } = options.endpoints;
  const made = performance.now();
  const nodes = await createBenchNodes(client, count, history);
  console.log(
    `\n▶ ${count.toLocaleString("en")} nodes in pool ${nodes.poolId}, each with ${history} snapshots (made in ${((performance.now() - made) / 1000).toFixed(0)} s)`,
  );
  // the floors must answer what the app answers, or their figures mean nothing
  await checkSameNodeAnswers(app, httpFloor, nodes);
  await checkSameNodeAnswers(app, nextFloor, nodes);
  console.log(
    "HTTP and Next.js floors answer as the app does (inventory/report unchanged, nodes/list first page and from a cursor: same bytes)",
  );
  const report =
    (at: Endpoint, connections: number, options: { seconds?: number; changedSeq?: () => number } = {}) =>
    () =>
      httpLoad({
        url: at.url("inventory/report"),
        headers: at.headers,
        bearer: "",
        bearerFor: (i) => nodes.tokens[i % count]!,
        connections,
        seconds: options.seconds ?? seconds,
        bodyFor: () => reportBody(nodes, options.changedSeq?.()),
      });
  const list =
    (at: Endpoint, connections: number, runSeconds = seconds) =>
    () =>
      httpLoad({
        url: at.url("nodes/list"),
        headers: at.headers,
        bearer: BENCH_BEARER,
        connections,
        seconds: runSeconds,
        bodyFor: () => listNodesBody(nodes),
      });
  // Warm every app and HTTP floor process on these methods (JIT, key imports),
  // as the join requests' phase does: a cold one skews the first run it serves.
  const warmUp = { connections: Math.max(...connectionsList), seconds: smoke ? seconds : 3 };
  for (const at of [app, httpFloor, nextFloor]) {
    await report(at, warmUp.connections, { seconds: warmUp.seconds })();
    await list(at, warmUp.connections, warmUp.seconds)();
  }
  const where = (scenario: string, connections: number) => ({ size: count, rows: count, scenario, connections });
  // each side reports to a fleet that is all due, as a five-minute daemon's is
  const due = (run: () => Promise<Figures>) => async () => {
    await makeFleetDue(client, nodes);
    return run();
  };
  for (const connections of connectionsList) {
    nodes.tokens = await tokensFor(nodes.ids, nodes.privateKeyPem); // fresh for this round (a JWT lives ≤ 300 s)
    await measureRow(
      rows,
      where(`inventory/report unchanged (${count / 1000}k nodes)`, connections),
      {
        http: due(report(app, connections)),
        httpFloor: due(report(httpFloor, connections)),
        nextFloor: due(report(nextFloor, connections)),
      },
      { warmUp: !smoke },
    );
    await measureRow(
      rows,
      where(`nodes/list (page 100 of ${count / 1000}k)`, connections),
      {
        http: list(app, connections),
        httpFloor: list(httpFloor, connections),
        nextFloor: list(nextFloor, connections),
      },
      { warmUp: !smoke },
    );
  }
  // Changed reports last: each leaves its node a new latest snapshot, which
  // would make a later "unchanged" report of that node a change (stored by
  // the app, refused by the floors).
  let seq = 0;
  for (const connections of connectionsList) {
    nodes.tokens = await tokensFor(nodes.ids, nodes.privateKeyPem);
    await measureRow(
      rows,
      where(`inventory/report changed (${count / 1000}k nodes)`, connections),
      {
        http: report(app, connections, { changedSeq: () => seq++ }),
      },
      { warmUp: false },
    );
  }
  return nodes;
}
