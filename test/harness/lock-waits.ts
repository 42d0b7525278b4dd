import { Client } from "pg";

/**
 * Resolves once another session waits on a lock that `holder`'s session
 * holds (PostgreSQL's pg_blocking_pids): a test that holds a row lock to make
 * a call wait starts its clock when the call really waits, not when it was
 * sent — on a loaded machine the call may reach the database seconds later.
 * Asks from a connection of its own: inside the holder's transaction,
 * pg_stat_activity would answer from the snapshot its first read took.
 */
export async function untilSomeoneWaitsOn(holder: Client, databaseUrl: string, timeoutMs = 30_000): Promise<void> {
  const { rows } = await holder.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  const holderPid = rows[0]!.pid;
  const observer = new Client({ connectionString: databaseUrl });
  await observer.connect();
  try {
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
      const waiting = await observer.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))",
        [holderPid],
      );
      if (waiting.rows[0]!.n > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no session waited on a lock of backend ${holderPid} within ${timeoutMs} ms`);
  } finally {
    await observer.end();
  }
}
