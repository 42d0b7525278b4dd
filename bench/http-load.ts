import autocannon from "autocannon";
import { figuresFrom, type Figures } from "./figures";

/**
 * Drives one POST method with autocannon on loopback for `seconds` at
 * `connections`, stopping early after `amount` requests. `bodyFor(i)` gives
 * each request its body (distinct approvals need distinct ids).
 */
export async function httpLoad(options: {
  url: string;
  bearer: string;
  connections: number;
  seconds: number;
  amount?: number;
  bodyFor: (index: number) => string;
  /** a bearer per request (a node's JWT), instead of `bearer` */
  bearerFor?: (index: number) => string;
  expectStatus?: number[];
  /** more headers on every request (the Next.js floor's x-bench-floor) */
  headers?: Record<string, string>;
}): Promise<Figures> {
  let index = 0;
  const expected = new Set(options.expectStatus ?? [200]);
  let unexpected = 0;
  // autocannon's own percentiles are whole milliseconds; keep each response's
  // time (hrtime, fractional ms) so p50s of a few ms compare with the floor's.
  const latencies: number[] = [];
  const result = await autocannon({
    url: options.url,
    method: "POST",
    connections: options.connections,
    duration: options.seconds,
    amount: options.amount,
    headers: { authorization: `Bearer ${options.bearer}`, "content-type": "application/json", ...options.headers },
    requests: [
      {
        setupRequest: (request) => {
          const i = index++;
          if (!options.bearerFor) return { ...request, body: options.bodyFor(i) };
          return { ...request, headers: { ...request.headers, authorization: `Bearer ${options.bearerFor(i)}` }, body: options.bodyFor(i) };
        },
      },
    ],
    setupClient: (client) => {
      client.on("response", (statusCode: number, _bytes: number, durationMs: number) => {
        if (expected.has(statusCode)) latencies.push(durationMs);
        else unexpected++;
      });
    },
  });
  return figuresFrom(latencies, result.errors + result.timeouts + unexpected, result.duration);
}
