import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { serveMethod } from "@/server/methods/serve-method";
import { inProcessAdmin, json, unique } from "@/test/cli/admin";
import { cliFailure } from "../shared/run-cli";
import { ADMIN_HELP, runAdmin } from "./run-admin";

const { admin, adminWorld } = inProcessAdmin({ main: runAdmin, failure: (error) => cliFailure("admin", ADMIN_HELP, error) });

// `npm run admin -- users|grants|service-keys …` (SPEC E1, E2): secrets shown
// once and hashed at rest, grants that take effect (and stop) at the next
// request, tenant-admin tenant-wide only.

const PASSWORD = "a long enough password";

async function call(method: string, bearer: string, body: Record<string, unknown>) {
  const response = await serveMethod(
    new Request(`http://localhost/api/compute/${method}`, {
      method: "POST",
      headers: { authorization: `Bearer ${bearer}` },
      body: JSON.stringify(body),
    }),
    method,
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A service key of the tenant, made with the CLI: its bearer, from the one time it is shown. */
async function newServiceKey(tenantId: string, name = "ci"): Promise<{ id: string; bearer: string }> {
  const created = json<{ serviceKey: { id: string }; bearer: string }>(
    await admin(["service-keys", "create", "--tenant", tenantId, "--name", name, "--json"]),
  );
  return { id: created.serviceKey.id, bearer: created.bearer };
}

describe("admin users", () => {
  it("create --password-stdin stores only a scrypt hash; the same password again is unchanged, another is a conflict", async () => {
    const email = `${unique("u")}@example.test`;
    const made = await admin(["users", "create", "--email", email.toUpperCase(), "--name", "Ops", "--password-stdin"], {
      stdin: `${PASSWORD}\n`,
    });
    expect(made).toMatchObject({ code: 0, stdout: `created: user ${email} (password)` });
    const row = await (await getDb()).user.findUniqueOrThrow({ where: { email } });
    expect(row.passwordHash).toMatch(/^scrypt:16384:8:1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(row.passwordHash).not.toContain(PASSWORD);
    expect(made.stdout).not.toContain(PASSWORD);

    const again = await admin(["users", "create", "--email", email, "--name", "Ops", "--password-stdin"], { stdin: PASSWORD });
    expect(again.stdout).toBe(`user ${email} (password): unchanged (already so), nothing written`);
    const other = await admin(["users", "create", "--email", email, "--name", "Ops", "--password-stdin"], {
      stdin: "another long password",
    });
    expect(other).toMatchObject({ code: 1, stderr: `admin failed: user ${email} exists with another password; nothing changed` });
    const sso = await admin(["users", "create", "--email", email, "--name", "Ops"]);
    expect(sso).toMatchObject({
      code: 1,
      stderr: `admin failed: user ${email} exists with a password (this create gave none); nothing changed`,
    });
  });

  it("create without a password is single-sign-on only; bad input names the field; an empty stdin is a usage error", async () => {
    const email = `${unique("sso")}@example.test`;
    expect((await admin(["users", "create", "--email", email])).stdout).toBe(`created: user ${email} (single sign-on only)`);
    expect((await (await getDb()).user.findUniqueOrThrow({ where: { email } })).passwordHash).toBeNull();
    expect(await admin(["users", "create", "--email", "not-an-email"])).toMatchObject({
      code: 1,
      stderr: "admin failed: email: must be an email address",
    });
    expect(await admin(["users", "create", "--email", `${unique("short")}@x.test`, "--password-stdin"], { stdin: "short" })).toMatchObject({
      code: 1,
      stderr: "admin failed: password: must be at least 12 characters",
    });
    expect((await admin(["users", "create", "--email", `${unique("e")}@x.test`, "--password-stdin"], { stdin: "" })).code).toBe(2);
  });

  it("list shows sign-in kind and grants, never a hash; disable is idempotent and takes the session away", async () => {
    const { tenantId } = await adminWorld();
    const email = `${unique("d")}@example.test`;
    await admin(["users", "create", "--email", email, "--password-stdin"], { stdin: PASSWORD });
    await admin(["grants", "add", "--tenant", tenantId, "--subject", email, "--role", "pool-viewer", "--all-pools"]);
    const listed = json<Record<string, unknown>[]>(await admin(["users", "list", "--json"])).find((user) => user.email === email);
    expect(listed).toMatchObject({
      email,
      signIn: "password",
      disabledAt: null,
      grants: [{ tenantId, poolId: null, role: "pool_viewer" }],
    });
    expect(JSON.stringify(listed)).not.toMatch(/scrypt|passwordHash/);
    expect((await admin(["users", "list"])).stdout).toMatch(
      new RegExp(`^${email}\\s+\\S+\\s+password\\s+pool-viewer@${tenantId}/\\*\\s+—$`, "m"),
    );

    expect((await admin(["users", "disable", "--email", email])).stdout).toBe(`changed: user ${email} disabled`);
    expect((await admin(["users", "disable", "--email", email])).stdout).toMatch(/unchanged/);
    expect((await admin(["users", "disable", "--email", `${unique("nobody")}@x.test`])).code).toBe(1);
    const row = await (await getDb()).user.findUniqueOrThrow({ where: { email } });
    expect(row.disabledAt).not.toBeNull();
    const events = await (
      await getDb()
    ).event.findMany({ where: { tenantId, type: "compute.admin.changed", data: { path: ["verb"], equals: "disable" } } });
    expect(events).toHaveLength(1);
  });
});

describe("admin service keys", () => {
  it("create prints the bearer once, which works once granted; list never shows it; an identical re-create cannot show it again", async () => {
    const { tenantId, pools } = await adminWorld();
    const id = `k${unique("x").replace(/-/g, "")}`;
    const created = await admin(["service-keys", "create", "--tenant", tenantId, "--name", "deploy bot", "--id", id]);
    expect(created.code, created.stderr).toBe(0);
    const bearer = /bcsk_[0-9a-z]+\.[A-Za-z0-9_-]{43}/.exec(created.stdout)?.[0];
    expect(bearer).toMatch(new RegExp(`^bcsk_${id}\\.`));
    const secret = bearer!.split(".")[1]!;

    const row = await (await getDb()).serviceKey.findUniqueOrThrow({ where: { id } });
    expect(Buffer.from(row.secretHash).toString("hex")).toHaveLength(64);
    expect(Buffer.from(row.secretHash).toString("utf8")).not.toContain(secret);

    const listed = await admin(["service-keys", "list", "--tenant", tenantId]);
    const listedJson = await admin(["service-keys", "list", "--tenant", tenantId, "--json"]);
    for (const output of [listed.stdout, listedJson.stdout]) expect(output).not.toContain(secret);
    expect(listed.stdout).toMatch(new RegExp(`^bcsk_${id}\\s+deploy bot\\s+none\\s+`, "m"));

    const again = await admin(["service-keys", "create", "--tenant", tenantId, "--name", "deploy bot", "--id", id]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("cannot be shown again");
    expect(again.stdout).not.toMatch(/bcsk_[0-9a-z]+\./);
    expect(await admin(["service-keys", "create", "--tenant", tenantId, "--name", "renamed", "--id", id])).toMatchObject({ code: 1 });
    expect(await admin(["service-keys", "create", "--tenant", tenantId, "--name", "x", "--id", "UPPER"])).toMatchObject({
      code: 1,
      stderr: "admin failed: id: must match ^[0-9a-z]{1,64}$",
    });

    // no grant yet: 403; granted: 200; revoked: 401
    const body = { tenantId, poolId: pools[0] };
    expect((await call("joinRequests/list", bearer!, body)).status).toBe(403);
    await admin(["grants", "add", "--tenant", tenantId, "--subject", `bcsk_${id}`, "--role", "pool-viewer", "--pool", pools[0]]);
    expect((await call("joinRequests/list", bearer!, body)).status).toBe(200);
    expect((await admin(["service-keys", "revoke", "--tenant", tenantId, "--id", `bcsk_${id}`])).stdout).toBe(
      `changed: service key bcsk_${id} revoked`,
    );
    expect((await admin(["service-keys", "revoke", "--tenant", tenantId, "--id", id])).stdout).toMatch(/unchanged/);
    expect((await call("joinRequests/list", bearer!, body)).status).toBe(401);
  });
});

describe("admin grants", () => {
  it("add is idempotent; remove takes access away at the very next request; removing an absent grant is exit 1", async () => {
    const { tenantId, pools } = await adminWorld();
    const key = await newServiceKey(tenantId);
    const grant = ["--tenant", tenantId, "--subject", key.id, "--role", "pool-admin", "--pool", pools[0]];
    expect((await admin(["grants", "add", ...grant])).stdout).toBe(`created: pool-admin for bcsk_${key.id} on pool ${pools[0]}`);
    expect((await admin(["grants", "add", ...grant])).stdout).toMatch(/unchanged/);
    expect(await (await getDb()).roleGrant.count({ where: { serviceKeyId: key.id } })).toBe(1);
    expect((await call("joinRequests/list", key.bearer, { tenantId, poolId: pools[0] })).status).toBe(200);
    expect((await call("joinRequests/list", key.bearer, { tenantId, poolId: pools[1] })).status).toBe(403);

    const listed = json<{ subject: string; role: string; poolId: string | null }[]>(
      await admin(["grants", "list", "--tenant", tenantId, "--json"]),
    );
    expect(listed).toContainEqual(expect.objectContaining({ subject: `bcsk_${key.id}`, role: "pool-admin", poolId: pools[0] }));

    expect((await admin(["grants", "remove", ...grant])).stdout).toBe(`changed: removed pool-admin on pool ${pools[0]}`);
    expect((await call("joinRequests/list", key.bearer, { tenantId, poolId: pools[0] })).status).toBe(403);
    expect(await admin(["grants", "remove", ...grant])).toMatchObject({
      code: 1,
      stderr: `admin failed: bcsk_${key.id} holds no pool-admin grant on pool ${pools[0]}; nothing changed`,
    });
  });

  it("refuses what cannot be: tenant-admin on one pool, unknown subjects, pools and roles, keys of another tenant, scope usage", async () => {
    const { tenantId, pools } = await adminWorld();
    const other = await adminWorld();
    const key = await newServiceKey(tenantId);
    const base = ["grants", "add", "--tenant", tenantId, "--subject", key.id];
    expect(await admin([...base, "--role", "tenant-admin", "--pool", pools[0]])).toMatchObject({
      code: 1,
      stderr: "admin failed: poolId: tenant-admin is granted on every pool of the tenant (--all-pools), never on one pool",
    });
    expect(await admin([...base, "--role", "root", "--all-pools"])).toMatchObject({
      code: 1,
      stderr: "admin failed: role: must be one of pool-viewer, pool-admin, tenant-admin",
    });
    expect(await admin([...base, "--role", "pool-admin", "--pool", other.pools[0]])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/not found in tenant/),
    });
    expect(
      await admin(["grants", "add", "--tenant", other.tenantId, "--subject", key.id, "--role", "pool-viewer", "--all-pools"]),
    ).toMatchObject({
      code: 1,
      stderr: `admin failed: service key bcsk_${key.id} belongs to tenant ${tenantId}, not ${other.tenantId}`,
    });
    expect(await admin([...base.slice(0, 4), "--subject", "nobody@example.test", "--role", "pool-viewer", "--all-pools"])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/user nobody@example.test not found/),
    });
    expect((await admin([...base, "--role", "pool-admin"])).code).toBe(2);
    expect((await admin([...base, "--role", "pool-admin", "--pool", pools[0], "--all-pools"])).code).toBe(2);
    // the database refuses it too, whoever writes the row
    await expect(
      (await getDb()).roleGrant.create({
        data: { id: unique("grant"), tenantId, poolId: pools[0], role: "tenant_admin", serviceKeyId: key.id },
      }),
    ).rejects.toThrow(/role_grants_tenant_admin_tenant_wide/);
  });
});
