import { describe, expect, it } from "vitest";
import { checkReadiness, type ReadinessSources } from "./check-readiness";

const COMMITTED = ["20261201000000_init", "20261202000000_webhooks", "20261203000000_nodes"];

const sources = (overrides: Partial<ReadinessSources> = {}): ReadinessSources => ({
  ping: async () => {},
  appliedMigrations: async () => COMMITTED,
  committedMigrations: async () => COMMITTED,
  configurationProblem: () => undefined,
  ...overrides,
});

const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

describe("checkReadiness", () => {
  it("ready when the database answers, every migration is applied and the configuration is complete", async () => {
    expect(await checkReadiness(sources())).toEqual({
      ready: true,
      checks: { database: "ok", migrations: "ok", configuration: "ok" },
    });
  });

  it("names the database when it does not answer, without its address, and does not check migrations", async () => {
    const readiness = await checkReadiness(sources({ ping: async () => Promise.reject(refused) }));
    expect(readiness.ready).toBe(false);
    expect(readiness.checks.database).toBe("unreachable: the database does not answer");
    expect(readiness.checks.migrations).toBe("not checked: the database is unreachable");
    expect(JSON.stringify(readiness)).not.toContain("127.0.0.1");
  });

  it("says failing over when the leader's address answers but no primary is behind it (issue 37)", async () => {
    for (const sign of [new Error("Connection terminated unexpectedly"), Object.assign(new Error("read-only"), { code: "25006" })]) {
      expect(await checkReadiness(sources({ ping: async () => Promise.reject(sign) }))).toEqual({
        ready: false,
        checks: { database: "failing over", migrations: "not checked: the database is failing over", configuration: "ok" },
      });
    }
  });

  it("names the migrations not applied", async () => {
    const readiness = await checkReadiness(sources({ appliedMigrations: async () => COMMITTED.slice(0, 1) }));
    expect(readiness).toEqual({
      ready: false,
      checks: {
        database: "ok",
        migrations: "2 not applied: 20261202000000_webhooks, 20261203000000_nodes (run npm run db:migrate)",
        configuration: "ok",
      },
    });
  });

  it("names at most three, then counts the rest", async () => {
    const committed = ["m1", "m2", "m3", "m4", "m5"];
    const readiness = await checkReadiness(sources({ committedMigrations: async () => committed, appliedMigrations: async () => [] }));
    expect(readiness.checks.migrations).toBe("5 not applied: m1, m2, m3 and 2 more (run npm run db:migrate)");
  });

  it("a history that cannot be read is not ready, with the error's code", async () => {
    const denied = Object.assign(new Error("permission denied for table _prisma_migrations"), { code: "42501" });
    const readiness = await checkReadiness(sources({ appliedMigrations: async () => Promise.reject(denied) }));
    expect(readiness.ready).toBe(false);
    expect(readiness.checks.migrations).toBe("could not be read: 42501");
  });

  it("names an incomplete configuration", async () => {
    const problem = "BC_CA_KEY_ENCRYPTION_KEY must be set when DATABASE_URL is set";
    const readiness = await checkReadiness(sources({ configurationProblem: () => problem }));
    expect(readiness).toEqual({ ready: false, checks: { database: "ok", migrations: "ok", configuration: problem } });
  });
});
