import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { inProcessAdmin, json, unique } from "@/test/cli/admin";
import { cliFailure } from "../shared/run-cli";
import { ADMIN_HELP, runAdmin } from "./run-admin";

const { admin, adminWorld } = inProcessAdmin({ main: runAdmin, failure: (error) => cliFailure("admin", ADMIN_HELP, error) });

// `npm run admin -- tenants|sites|pools …` (SPEC E1): each verb's output, an
// identical re-create (exit 0, nothing written), a conflicting one (exit 1,
// one line), bad ids (exit 1 naming the field), usage (exit 2), --json.

const eventsOf = async (id: string) =>
  (await getDb()).event.findMany({ where: { type: "compute.admin.changed", data: { path: ["id"], equals: id } }, orderBy: { id: "asc" } });

describe("admin tenants", () => {
  it("create: made once, identical again → unchanged (no second event), another name → exit 1 in one line", async () => {
    const id = unique("t");
    const made = await admin(["tenants", "create", "--id", id, "--name", "Tenant One"]);
    expect(made).toMatchObject({ code: 0, stdout: `created: tenant ${id}` });
    const again = await admin(["tenants", "create", "--id", id, "--name", "Tenant One"]);
    expect(again).toMatchObject({ code: 0, stdout: `tenant ${id}: unchanged (already so), nothing written` });
    const conflict = await admin(["tenants", "create", "--id", id, "--name", "Another"]);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toBe(`admin failed: tenant ${id} exists with the name "Tenant One"; nothing changed`);
    await expect((await getDb()).tenant.findUniqueOrThrow({ where: { id } })).resolves.toMatchObject({ name: "Tenant One" });
    const events = await eventsOf(id);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ noun: "tenant", verb: "create", id, actor: expect.stringMatching(/^cli:.+/) });
  });

  it("create: a bad id is exit 1 naming the field; a missing --id is a usage error (exit 2)", async () => {
    const bad = await admin(["tenants", "create", "--id", "no spaces allowed"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe("admin failed: id: must match ^[A-Za-z0-9._:-]{1,128}$");
    const usage = await admin(["tenants", "create"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^--id is required\n.*Usage:\n {2}npm run admin -- tenants create --id <tenantId>/s);
  });

  it("list: a table, and --json an array", async () => {
    const id = unique("t");
    await admin(["tenants", "create", "--id", id, "--name", "Listed"]);
    const table = await admin(["tenants", "list"]);
    expect(table.stdout.split("\n")[0]).toMatch(/^TENANT\s+NAME\s+CREATED$/);
    expect(table.stdout).toMatch(new RegExp(`^${id}\\s+Listed\\s+\\d{4}-`, "m"));
    const rows = json<{ id: string; name: string }[]>(await admin(["tenants", "list", "--json"]));
    expect(rows).toContainEqual(expect.objectContaining({ id, name: "Listed" }));
  });
});

describe("admin sites", () => {
  it("create in a tenant; the same again unchanged; in another tenant → conflict; unknown tenant → exit 1", async () => {
    const { tenantId } = await adminWorld();
    const other = await adminWorld();
    const id = unique("s");
    expect((await admin(["sites", "create", "--tenant", tenantId, "--id", id, "--name", "Frankfurt"])).stdout).toBe(
      `created: site ${id} in tenant ${tenantId}`,
    );
    expect((await admin(["sites", "create", "--tenant", tenantId, "--id", id, "--name", "Frankfurt"])).code).toBe(0);
    const moved = await admin(["sites", "create", "--tenant", other.tenantId, "--id", id, "--name", "Frankfurt"]);
    expect(moved).toMatchObject({ code: 1, stderr: `admin failed: site ${id} exists with another tenant (${tenantId}); nothing changed` });
    expect(await admin(["sites", "create", "--tenant", unique("nobody"), "--id", unique("s")])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/tenant .* not found$/),
    });
    expect((await admin(["sites", "create", "--tenant", tenantId, "--id=-leading-dash"])).stderr).toMatch(/^admin failed: id: must match/);
    const listed = json<{ id: string }[]>(await admin(["sites", "list", "--tenant", tenantId, "--json"]));
    expect(listed.map((site) => site.id)).toContain(id);
    expect((await admin(["sites", "list"])).code).toBe(2);
  });
});

describe("admin pools", () => {
  it("create (--requires-tpm), conflicting re-create, archive and unarchive (each idempotent, one event each)", async () => {
    const { tenantId, siteId } = await adminWorld();
    const id = unique("p");
    const created = json(await admin(["pools", "create", "--tenant", tenantId, "--site", siteId, "--id", id, "--requires-tpm", "--json"]));
    expect(created).toMatchObject({ outcome: "created", pool: { id, tenantId, siteId, requiresTpm: true, archivedAt: null } });
    const noTpm = await admin(["pools", "create", "--tenant", tenantId, "--site", siteId, "--id", id]);
    expect(noTpm).toMatchObject({ code: 1, stderr: `admin failed: pool ${id} exists with TPM required; nothing changed` });

    expect((await admin(["pools", "archive", "--tenant", tenantId, "--id", id])).stdout).toBe(`changed: pool ${id} archived`);
    expect((await admin(["pools", "archive", "--tenant", tenantId, "--id", id])).stdout).toBe(
      `pool ${id} archived: unchanged (already so), nothing written`,
    );
    const listed = await admin(["pools", "list", "--tenant", tenantId, "--site", siteId]);
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\s+${siteId}\\s+${id}\\s+required\\s+\\d{4}-`, "m"));
    expect((await admin(["pools", "unarchive", "--tenant", tenantId, "--id", id])).stdout).toBe(`changed: pool ${id} active`);
    await expect((await getDb()).pool.findUniqueOrThrow({ where: { id } })).resolves.toMatchObject({ archivedAt: null });
    expect((await eventsOf(id)).map((event) => (event.data as { verb: string }).verb)).toEqual(["create", "archive", "unarchive"]);

    expect(await admin(["pools", "archive", "--tenant", tenantId, "--id", unique("p")])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/not found in tenant/),
    });
    expect(await admin(["pools", "create", "--tenant", tenantId, "--site", unique("nosite"), "--id", unique("p")])).toMatchObject({
      code: 1,
    });
  });
});

describe("admin usage", () => {
  it("--help per noun exits 0 with its verbs; unknown nouns, verbs and options exit 2 with the usage", async () => {
    const help = await admin(["pools", "--help"]);
    expect(help.code).toBe(0);
    for (const verb of ["create", "list", "archive", "unarchive"]) expect(help.stdout).toContain(`npm run admin -- pools ${verb}`);
    expect((await admin(["--help"])).stdout).toMatch(/service-keys\s+create\|list\|revoke/);
    expect(await admin(["frobs", "list"])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^unknown noun frobs\nUsage: npm run admin/),
    });
    expect(await admin(["pools", "explode"])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^unknown verb pools explode\n/) });
    expect(await admin(["tenants", "list", "--colour"])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/Unknown option '--colour'/),
    });
    expect((await admin([])).code).toBe(2);
  });
});
