import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
let dir = "";
afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

// A command that is done (the seed) closes the database with closeDb. Prisma's
// $disconnect alone left the pg pool it was handed with idle connections,
// which kept `npm run db:seed` alive 10 s after its work. In a process of its
// own: closing the shared client here would close it for the other files.
describe("closeDb", () => {
  it("leaves no database socket open to keep a finished command alive, where $disconnect alone did", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "bc-close-db-"));
    const script = path.join(dir, "close-db.mts");
    await writeFile(
      script,
      `import { closeDb, getDb } from ${JSON.stringify(path.resolve("server/db/client.ts"))};
// counted a moment after each step: a socket being closed is released shortly after
const sockets = async () => {
  await new Promise((resolve) => setTimeout(resolve, 200));
  return process.getActiveResourcesInfo().filter((resource) => resource === "TCPSocketWrap").length;
};
const db = await getDb();
await db.$queryRaw\`SELECT 1\`;
await db.$disconnect();
const afterDisconnect = await sockets();
await closeDb();
console.log(JSON.stringify({ afterDisconnect, afterClose: await sockets() }));
`,
    );
    const { stdout } = await run(process.execPath, ["--conditions=react-server", "--import", "tsx", script], { env: process.env });
    const { afterDisconnect, afterClose } = JSON.parse(stdout.trim().split("\n").pop()!) as { afterDisconnect: number; afterClose: number };
    expect(afterDisconnect).toBeGreaterThan(0);
    expect(afterClose).toBe(0);
  });
});
