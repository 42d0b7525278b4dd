import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type BinaryProbe, findPostgresBinaries, startPostgresCluster } from "./postgres-cluster";

async function queryOne(url: string, sql: string): Promise<Record<string, unknown>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, unknown>>(sql);
    const [row] = rows;
    if (!row) throw new Error(`no row from: ${sql}`);
    return row;
  } finally {
    await client.end();
  }
}

/** A probe for a machine laid out as described; nothing is read from the real disk. */
function fakeProbe(layout: { executables: string[]; versions?: string[]; pgConfigBindir?: string }): BinaryProbe {
  return {
    isExecutable: async (path) => layout.executables.includes(path),
    listDir: async (dir) => (dir === "/usr/lib/postgresql" ? (layout.versions ?? []) : []),
    pgConfigBindir: async () => layout.pgConfigBindir,
  };
}

const serverIn = (dir: string) => ["initdb", "pg_ctl", "postgres"].map((name) => `${dir}/${name}`);

describe("findPostgresBinaries", () => {
  const emptyDirs: string[] = [];
  afterAll(async () => {
    await Promise.all(emptyDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("says which Debian package to install when PG_BIN holds no server", async () => {
    const emptyDir = await mkdtemp(join(tmpdir(), "bc-pg-bin-"));
    emptyDirs.push(emptyDir);
    const search = findPostgresBinaries({ PG_BIN: emptyDir });
    await expect(search).rejects.toThrow(/initdb, pg_ctl, postgres\) were not found/);
    await expect(search).rejects.toThrow(/Debian package `postgresql` \(apt-get install -y postgresql\)/);
    await expect(search).rejects.toThrow(emptyDir);
  });

  it("says the same when the machine has no server anywhere", async () => {
    // libpq-dev's pg_config names a bindir without the server in it.
    const search = findPostgresBinaries({}, fakeProbe({ executables: [], pgConfigBindir: "/usr/lib/postgresql/15/bin" }));
    await expect(search).rejects.toThrow(/Debian package `postgresql`.*or set PG_BIN/);
  });

  it("prefers PG_BIN, then pg_config --bindir, then the newest /usr/lib/postgresql/<version>", async () => {
    const probe = fakeProbe({
      executables: [...serverIn("/opt/pg"), ...serverIn("/usr/lib/postgresql/9.6/bin"), ...serverIn("/usr/lib/postgresql/16/bin")],
      versions: ["15", "9.6", "16"],
      pgConfigBindir: "/opt/pg",
    });
    expect((await findPostgresBinaries({ PG_BIN: "/usr/lib/postgresql/9.6/bin" }, probe)).binDir).toBe("/usr/lib/postgresql/9.6/bin");
    expect((await findPostgresBinaries({}, probe)).binDir).toBe("/opt/pg");
    const withoutPgConfig = { ...probe, pgConfigBindir: async () => undefined };
    const newest = await findPostgresBinaries({}, withoutPgConfig);
    expect(newest).toEqual({
      binDir: "/usr/lib/postgresql/16/bin",
      initdb: "/usr/lib/postgresql/16/bin/initdb",
      pgCtl: "/usr/lib/postgresql/16/bin/pg_ctl",
    });
  });
});

describe("startPostgresCluster", () => {
  it("starts a throwaway server, creates databases, and leaves nothing behind", { timeout: 60_000 }, async () => {
    const cluster = await startPostgresCluster();
    try {
      expect(cluster.url).toMatch(/^postgresql:\/\/postgres@127\.0\.0\.1:\d+\/bc_test$/);
      expect(existsSync(cluster.dataDir)).toBe(true);

      expect(await queryOne(cluster.url, "select 1 as one, current_database() as db")).toEqual({ one: 1, db: "bc_test" });
      expect(await queryOne(cluster.url, "show fsync")).toEqual({ fsync: "off" });

      const otherUrl = await cluster.createDatabase("bc_other");
      expect(otherUrl).toBe(cluster.url.replace(/bc_test$/, "bc_other"));
      expect(await queryOne(otherUrl, "select current_database() as db")).toEqual({ db: "bc_other" });
    } finally {
      await cluster.stop();
    }
    expect(existsSync(cluster.dataDir)).toBe(false);
    await cluster.stop(); // a second stop is harmless
  });
});
