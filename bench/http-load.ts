import autocannon from "autocannon";
import type { Figures } from "./figures";

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
  expectStatus?: number[];
}): Promise<Figures> {
  let index = 0;
  const expected = new Set(options.expectStatus ?? [200]);
  let unexpected = 0;
  const result = await autocannon({
    url: options.url,
    method: "POST",
    connections: options.connections,
    duration: options.seconds,
    amount: options.amount,
    headers: { authorization: `Bearer ${options.bearer}`, "content-type": "application/json" },
    requests: [{ setupRequest: (request) => ({ ...request, body: options.bodyFor(index++) }) }],
    setupClient: (client) => {
      client.on("response", (statusCode: number) => {
        if (!expected.has(statusCode)) unexpected++;
      });
    },
  });
  const elapsed = result.duration;
  return {
    requests: result.requests.total,
    errors: result.errors + result.timeouts + unexpected,
    throughput: result.requests.total / elapsed,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}
