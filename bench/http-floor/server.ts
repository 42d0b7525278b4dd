// The HTTP floor's server: bare node:http in HTTP_FLOOR_PROCESSES processes
// sharing one port through node:cluster (as scripts/serve.mjs runs the app),
// each with its own pg pool of BC_DB_POOL_MAX connections (as each app process
// has). The primary prints "ready" once every process listens.
// Run by start-http-floor.ts: tsx --conditions=react-server bench/http-floor/server.ts
import cluster from "node:cluster";
import { createServer } from "node:http";
import pg from "pg";
import { newId } from "@/lib/ids";
import { answerFloor } from "@/server/bench-floor/answer-floor";

const port = Number(process.env.PORT);
const processes = Number(process.env.HTTP_FLOOR_PROCESSES ?? "1");

if (cluster.isPrimary) {
  let listening = 0;
  let alive = processes;
  let stopping = false;
  for (let i = 0; i < processes; i++) cluster.fork();
  cluster.on("listening", () => {
    if (++listening === processes) console.log(`ready on 127.0.0.1:${port} with ${processes} process(es)`);
  });
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (--alive === 0) process.exit(0);
      return;
    }
    // one process lost is a floor measured wrong: stop them all (they follow on disconnect)
    console.error(`http floor process ${worker.process.pid} exited (${signal ?? code})`);
    process.exit(1);
  });
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
} else {
  const db = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.BC_DB_POOL_MAX ?? "10") });
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      void answerFloor(db, request.url ?? "", request.headers.authorization, Buffer.concat(chunks).toString("utf8")).then((answer) => {
        response.writeHead(answer.status, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(answer.body),
          "x-request-id": newId("req"),
          "cache-control": "no-store",
        });
        response.end(answer.body);
      });
    });
  });
  server.listen(port, "127.0.0.1");
  // the primary went away (killed): so does this process
  process.on("disconnect", () => process.exit(0));
}
