import { BENCH_BEARER } from "../workload/dataset";

/** The published methods the floors serve (server/bench-floor/answer-floor.ts). */
export type FloorMethod = "joinRequests/list" | "joinRequests/approve" | "inventory/report" | "nodes/list";

/** Where the app or a floor answers a method, and what else a call carries. */
export interface Endpoint {
  name: string;
  url: (method: FloorMethod) => string;
  headers?: Record<string, string>;
}

/** The published methods at a base URL: the app's, or the HTTP floor's (which serves the same paths). */
export const publishedAt = (name: string, baseUrl: string): Endpoint => ({
  name,
  url: (method) => `${baseUrl}/api/compute/${method}`,
});

/** The Next.js floor in the app at `baseUrl`: its route names a method `<group>.<method>`, reached with the run's token. */
export const nextFloorAt = (baseUrl: string, token: string): Endpoint => ({
  name: "Next.js floor",
  url: (method) => `${baseUrl}/api/compute/bench-floor/${method.replace("/", ".")}`,
  headers: { "x-bench-floor": token },
});

export interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

/** One call, as the load sends it: the bench's service key unless `bearer` is given (a node's JWT). */
export async function post(endpoint: Endpoint, method: FloorMethod, body: string, bearer = BENCH_BEARER): Promise<Answer> {
  const response = await fetch(endpoint.url(method), {
    method: "POST",
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json", ...endpoint.headers },
    body,
  });
  return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
}

/** Throws, showing where, unless both answered the same status, content type and bytes. */
export function assertSameAnswer(what: string, app: Answer, floor: Answer): void {
  const [a, f] = [`${app.status} ${app.contentType}`, `${floor.status} ${floor.contentType}`];
  if (a !== f) throw new Error(`floor check, ${what}: the app answered ${a}, the floor ${f}: ${floor.text.slice(0, 200)}`);
  if (app.text === floor.text) return;
  let at = 0;
  while (app.text[at] === floor.text[at]) at++;
  const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 60), at + 60));
  throw new Error(
    `floor check, ${what}: the bodies differ at character ${at} (app ${app.text.length}, floor ${floor.text.length})\n` +
      `  app:   ${around(app.text)}\n  floor: ${around(floor.text)}`,
  );
}
