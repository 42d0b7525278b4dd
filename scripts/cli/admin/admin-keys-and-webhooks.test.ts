import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { inProcessAdmin, json } from "@/test/cli/admin";
import { cliFailure } from "../shared/run-cli";
import { ADMIN_HELP, runAdmin } from "./run-admin";

const { admin, adminWorld } = inProcessAdmin({ main: runAdmin, failure: (error) => cliFailure("admin", ADMIN_HELP, error) });

// `npm run admin -- enrollment-keys|webhooks …` (SPEC B5, E1; also `npm run
// enrollment-keys` and `npm run webhooks`): the secret printed once, option
// values checked as usage errors, what does not exist a one-line failure, and
// every change a compute.admin.changed event that never carries the secret.

async function adminEvents(tenantId: string, noun: string) {
  const rows = await (await getDb()).event.findMany({ where: { tenantId, type: "compute.admin.changed" }, orderBy: { id: "asc" } });
  return rows.map((row) => row.data as Record<string, unknown>).filter((data) => data.noun === noun);
}

describe("admin enrollment-keys", () => {
  it("create prints the bearer once (--max-uses N sets the limit); list shows it; revoke twice changes it once", async () => {
    const { tenantId, siteId } = await adminWorld();
    const created = await admin([
      "enrollment-keys",
      "create",
      "--tenant",
      tenantId,
      "--site",
      siteId,
      "--max-uses",
      "25",
      "--ttl-days",
      "2",
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^created: bcse_[0-9a-f]+ {2}\S+ {2}created \S+ {2}0\/25 uses {2}expires \S+ {2}active\n/);
    expect(created.stdout).toContain("Bearer (shown once, store it now)");
    const [, id, secret] = /bcse_([0-9a-f]+)\.(\S+)/.exec(created.stdout)!;
    expect((await (await getDb()).siteEnrollmentKey.findUniqueOrThrow({ where: { id: id! } })).maxUses).toBe(25);

    const listed = await admin(["enrollment-keys", "list", "--tenant", tenantId, "--site", siteId]);
    expect(listed.stdout).toContain(`bcse_${id}  ${tenantId}/${siteId}`);
    expect(listed.stdout).not.toContain(secret);
    expect(json<unknown[]>(await admin(["enrollment-keys", "list", "--tenant", tenantId, "--site", siteId, "--json"]))).toHaveLength(1);

    const revoked = await admin(["enrollment-keys", "revoke", "--tenant", tenantId, "--site", siteId, "--id", `bcse_${id}`]);
    expect(revoked.stdout).toMatch(/^changed: .* REVOKED \S+$/);
    const again = await admin(["enrollment-keys", "revoke", "--tenant", tenantId, "--site", siteId, "--id", id!]);
    expect(again.stdout).toMatch(/unchanged \(already so\), nothing written$/);

    const events = await adminEvents(tenantId, "enrollment-key");
    expect(events.map((data) => `${data.verb} ${data.id} ${data.siteId}`)).toEqual([
      `create bcse_${id} ${siteId}`,
      `revoke bcse_${id} ${siteId}`,
    ]);
    expect(JSON.stringify(events)).not.toContain(secret);
  });

  it("a limit that is not a whole number ≥ 1 is a usage error (exit 2); an unknown site is a one-line failure (exit 1)", async () => {
    const { tenantId, siteId } = await adminWorld();
    const refused = await admin(["enrollment-keys", "create", "--tenant", tenantId, "--site", siteId, "--max-uses", "0"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^--max-uses must be a positive whole number\n.*\nUsage:\n/);
    expect((await admin(["enrollment-keys", "create", "--tenant", tenantId, "--site", siteId, "--ttl-days", "1.5"])).code).toBe(2);
    expect((await admin(["enrollment-keys", "list", "--tenant", tenantId])).code).toBe(2);
    expect(await admin(["enrollment-keys", "list", "--tenant", tenantId, "--site", "nowhere"])).toMatchObject({
      code: 1,
      stderr: `admin failed: site nowhere not found in tenant ${tenantId}`,
    });
  });
});

describe("admin webhooks", () => {
  it("create, list, rotate-secret and delete; each change an event without the secret", async () => {
    const { tenantId } = await adminWorld();
    const url = "https://hooks.example.com/bc";
    const created = await admin([
      "webhooks",
      "create",
      "--tenant",
      tenantId,
      "--url",
      url,
      "--types",
      "approved,.rejected,compute.admin.changed",
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain("types security.join-request.approved,security.join-request.rejected,compute.admin.changed");
    expect(created.stdout).toContain("Signing secret (shown once, store it now)");
    const id = /(whsub_[0-9a-z]{26})/.exec(created.stdout)![1]!;
    const secret = /(whsec_[A-Za-z0-9+/=]+)/.exec(created.stdout)![1]!;

    const listed = await admin(["webhooks", "list", "--tenant", tenantId]);
    expect(listed.stdout).toMatch(
      new RegExp(`^${id}  ${url}  format standard  types \\S+  healthy  last attempt never  0 consecutive failures$`),
    );
    expect(listed.stdout).not.toContain(secret);

    const rotated = json<{ outcome: string; webhook: { id: string; previousSecretExpiresAt: string }; secret: string }>(
      await admin(["webhooks", "rotate-secret", "--tenant", tenantId, "--id", id, "--grace-hours", "1", "--json"]),
    );
    expect(rotated).toMatchObject({ outcome: "changed", webhook: { id } });
    expect(rotated.secret).not.toBe(secret);
    expect(Date.parse(rotated.webhook.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(3500_000);

    expect((await admin(["webhooks", "delete", "--tenant", tenantId, "--id", id])).stdout).toBe(
      `changed: webhook ${id} deleted with its deliveries`,
    );
    expect((await admin(["webhooks", "list", "--tenant", tenantId])).stdout).toBe(`no webhooks for ${tenantId}`);

    const events = await adminEvents(tenantId, "webhook");
    expect(events.map((data) => `${data.verb} ${data.id}`)).toEqual([`create ${id}`, `rotate-secret ${id}`, `delete ${id}`]);
    expect(JSON.stringify(events)).not.toContain(secret.slice(6));
    expect(JSON.stringify(events)).not.toContain(rotated.secret.slice(6));
  });

  it("bad option values are usage errors (exit 2); bad input and what does not exist fail in one line (exit 1), writing nothing", async () => {
    const { tenantId } = await adminWorld();
    const other = await adminWorld();
    expect((await admin(["webhooks", "create", "--tenant", tenantId])).code).toBe(2);
    expect((await admin(["webhooks", "rotate-secret", "--tenant", tenantId, "--id", "whsub_x", "--grace-hours", "721"])).code).toBe(2);
    const bogus = await admin(["webhooks", "create", "--tenant", tenantId, "--url", "https://example.com/", "--types", "bogus"]);
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toMatch(/^admin failed: unknown event type security\.join-request\.bogus; known: /);
    const made = await admin(["webhooks", "create", "--tenant", tenantId, "--url", "https://hooks.example.com/x", "--json"]);
    const { webhook } = json<{ webhook: { id: string } }>(made);
    expect(await admin(["webhooks", "delete", "--tenant", other.tenantId, "--id", webhook.id])).toMatchObject({
      code: 1,
      stderr: `admin failed: webhook ${webhook.id} not found in tenant ${other.tenantId}`,
    });
    expect(await adminEvents(other.tenantId, "webhook")).toEqual([]);
    expect((await adminEvents(tenantId, "webhook")).map((data) => data.verb)).toEqual(["create"]);
  });
});

describe("admin webhooks --format (chat services)", () => {
  it("create --format slack, set-format teams: listed with it, each change recorded; an unknown format fails naming the known ones", async () => {
    const { tenantId } = await adminWorld();
    const slack = "https://hooks.slack.com/services/T/B/x";
    const created = await admin(["webhooks", "create", "--tenant", tenantId, "--url", slack, "--format", "slack"]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain("format slack");
    const id = /(whsub_[0-9a-z]{26})/.exec(created.stdout)![1]!;

    const changed = await admin(["webhooks", "set-format", "--tenant", tenantId, "--id", id, "--format", "teams"]);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toMatch(new RegExp(`^changed: ${id}  https://hooks\\.slack\\.com/services/T/B/x  format teams  `));
    expect((await admin(["webhooks", "list", "--tenant", tenantId])).stdout).toContain("  format teams  ");
    expect((await adminEvents(tenantId, "webhook")).map((data) => data.verb)).toEqual(["create", "set-format"]);

    const known = "known: standard, slack, teams, google_chat, mattermost";
    const bogus = await admin(["webhooks", "create", "--tenant", tenantId, "--url", "https://example.com/", "--format", "irc"]);
    expect(bogus).toMatchObject({ code: 1, stderr: `admin failed: unknown format irc; ${known}` });
    const bogusSet = await admin(["webhooks", "set-format", "--tenant", tenantId, "--id", id, "--format", "irc"]);
    expect(bogusSet).toMatchObject({ code: 1, stderr: `admin failed: unknown format irc; ${known}` });
    expect((await admin(["webhooks", "set-format", "--tenant", tenantId, "--id", id])).code).toBe(2);
    expect((await adminEvents(tenantId, "webhook")).map((data) => data.verb)).toEqual(["create", "set-format"]);
  });
});

describe("admin --help", () => {
  it("lists the enrollment-keys and webhooks nouns with their verbs", async () => {
    const help = (await admin(["--help"])).stdout;
    expect(help).toMatch(/^ {2}enrollment-keys +create\|list\|revoke$/m);
    expect(help).toMatch(/^ {2}webhooks +create\|list\|delete\|rotate-secret\|set-format$/m);
    expect((await admin(["webhooks", "--help"])).stdout).toContain(
      "npm run admin -- webhooks rotate-secret --tenant <tenantId> --id <whsub_…>",
    );
  });
});
