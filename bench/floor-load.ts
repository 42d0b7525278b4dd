import pg from "pg";
import { figuresFrom, type Figures } from "./figures";

/**
 * The floor: the same statements sent straight through `pg`, by
 * `concurrency` closed-loop workers for `seconds` (or until `amount` runs).
 */
export async function floorLoad(options: {
  databaseUrl: string;
  concurrency: number;
  seconds: number;
  amount?: number;
  run: (client: pg.PoolClient, index: number) => Promise<void>;
}): Promise<Figures> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.concurrency });
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const worker = async () => {
    const client = await pool.connect();
    try {
      while (performance.now() < deadline && (options.amount === undefined || next < options.amount)) {
        const index = next++;
        const t0 = performance.now();
        try {
          await options.run(client, index);
          latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    } finally {
      client.release();
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.end();
  return figuresFrom(latencies, errors, seconds);
}
