import { describe, expect, it } from "vitest";
import { HA_REQUIREMENTS, missingRequirements, planFor, REQUIREMENTS, type Requirement } from "./system-requirements";

const requirement = (what: string, debianPackages: string[], present: boolean): Requirement => ({
  what,
  debianPackages,
  present: async () => present,
});

describe("npm test's system requirements (issue 15 item 6)", () => {
  it("lists what is missing, in order, and nothing that is present", async () => {
    const missing = await missingRequirements([
      requirement("PostgreSQL", ["postgresql"], false),
      requirement("Chromium", ["chromium"], true),
      requirement("swtpm", ["swtpm", "swtpm-tools"], false),
    ]);
    expect(missing.map((r) => r.what)).toEqual(["PostgreSQL", "swtpm"]);
  });

  it("all present → ready, root or not", () => {
    expect(planFor([], true)).toEqual({ kind: "ready" });
    expect(planFor([], false)).toEqual({ kind: "ready" });
  });

  it("as root: install the missing packages, each once", () => {
    const missing = [requirement("swtpm", ["swtpm", "swtpm-tools"], false), requirement("tpm2-tools", ["tpm2-tools", "swtpm"], false)];
    expect(planFor(missing, true)).toEqual({
      kind: "install",
      packages: ["swtpm", "swtpm-tools", "tpm2-tools"],
      missing: ["swtpm", "tpm2-tools"],
    });
  });

  it("as anyone else: one line naming what is missing and the apt-get command", () => {
    const plan = planFor(
      [requirement("PostgreSQL's server binaries", ["postgresql"], false), requirement("Chromium", ["chromium"], false)],
      false,
    );
    expect(plan.kind).toBe("refuse");
    const message = plan.kind === "refuse" ? plan.message : "";
    expect(message.split("\n")).toHaveLength(1);
    expect(message).toContain("PostgreSQL's server binaries, Chromium");
    expect(message).toContain("apt-get install -y postgresql chromium");
  });

  it("names the command that needs them, and ha:up asks only for PostgreSQL and the HA cluster", () => {
    const plan = planFor([requirement("Patroni", ["patroni"], false)], false, "npm run ha:up");
    expect(plan.kind === "refuse" && plan.message).toMatch(/^npm run ha:up needs Patroni: .*or run npm run ha:up as root/);
    expect(HA_REQUIREMENTS.flatMap((r) => r.debianPackages)).toEqual(["postgresql", "patroni", "etcd-server", "etcd-client", "haproxy"]);
  });

  it("the requirements cover PostgreSQL, Chromium, curl, the software TPM and the HA cluster, each with its Debian package", () => {
    expect(REQUIREMENTS.flatMap((r) => r.debianPackages)).toEqual([
      "postgresql",
      "chromium-headless-shell",
      "curl",
      "swtpm",
      "swtpm-tools",
      "tpm2-tools",
      ...["patroni", "etcd-server", "etcd-client", "haproxy"],
    ]);
  });

  it("on this machine (which runs the suite) every requirement is met", async () => {
    expect((await missingRequirements()).map((r) => r.what)).toEqual([]);
  });
});
