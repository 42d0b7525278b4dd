import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { hashSecret } from "@/server/auth/credentials";
import { callMethod, errorCode } from "@/test/api/api-client";
import { createWorld, type World } from "@/test/api/world";
import { join, makeMachine } from "@/test/api/machine";

// SPEC Part A "joinTokens": create|list|revoke on compute-pool/{poolId}.
let world: World;

beforeAll(async () => {
  world = await createWorld();
});

const call = (verb: "create" | "list" | "revoke", body: Record<string, unknown>, bearer = world.keys.admin) =>
  callMethod(`joinTokens/${verb}`, { tenantId: world.tenantId, poolId: world.pools.a, ...body }, { bearer });

const TOKEN_FIELDS = ["createdAt", "createdBy", "expiresAt", "id", "maxUses", "poolId", "revokedAt", "uses"];

describe("joinTokens/create", () => {
  it("returns the bearer once, with defaults of 1 use and 1 hour; stores only SHA-256 of the secret", async () => {
    const before = Date.now();
    const response = await call("create", {});
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual([...TOKEN_FIELDS, "bearer"].sort());
    const { bearer, id } = response.body;
    expect(bearer).toMatch(new RegExp(`^bcjt_${id}\\.[A-Za-z0-9_-]{43}$`));
    expect(response.body).toMatchObject({
      poolId: world.pools.a,
      maxUses: 1,
      uses: 0,
      revokedAt: null,
      createdBy: world.keys.admin.split(".")[0],
    });
    const ttl = new Date(response.body.expiresAt).getTime() - before;
    expect(ttl).toBeGreaterThan(3600_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(3600_000 + 1000);

    const stored = await (await getDb()).joinToken.findUniqueOrThrow({ where: { id } });
    expect(Buffer.from(stored.secretHash)).toEqual(Buffer.from(hashSecret(bearer.split(".")[1])));
  });

  it("a created token lets a machine join its pool", async () => {
    const { body } = await call("create", { maxUses: 2, ttlSeconds: 600 });
    expect(body).toMatchObject({ maxUses: 2 });
    expect((await join(await makeMachine(), body.bearer)).status).toBe(202);
  });

  it.each([
    [{ maxUses: 0 }, "maxUses"],
    [{ maxUses: 10_001 }, "maxUses"],
    [{ maxUses: "3" }, "maxUses"],
    [{ maxUses: 1.5 }, "maxUses"],
    [{ ttlSeconds: 59 }, "ttlSeconds"],
    [{ ttlSeconds: 2_592_001 }, "ttlSeconds"],
    [{ secret: "mine" }, "secret"],
  ])("%o → INVALID_ARGUMENT naming %s", async (body, field) => {
    const response = await call("create", body);
    expect(response.status).toBe(400);
    expect(response.body.error.details[0].field).toBe(field);
  });

  it("accepts the bounds, and null as the default", async () => {
    expect((await call("create", { maxUses: 10_000, ttlSeconds: 2_592_000 })).status).toBe(200);
    expect((await call("create", { maxUses: 1, ttlSeconds: 60 })).status).toBe(200);
    expect((await call("create", { maxUses: null, ttlSeconds: null })).body).toMatchObject({ maxUses: 1 });
  });

  it("an archived pool → INVALID_STATE", async () => {
    const response = await call("create", { poolId: world.pools.archived });
    expect(response.status).toBe(409);
    expect(errorCode(response)).toBe("INVALID_STATE");
  });

  it("a viewer → PERMISSION_DENIED; a pool admin of another pool → PERMISSION_DENIED; another tenant's pool → NOT_FOUND", async () => {
    expect(errorCode(await call("create", {}, world.keys.viewer))).toBe("PERMISSION_DENIED");
    expect(errorCode(await call("create", { poolId: world.pools.b }, world.keys.poolAdminA))).toBe("PERMISSION_DENIED");
    expect(errorCode(await call("create", { poolId: world.other.poolId }))).toBe("NOT_FOUND");
  });
});

describe("joinTokens/list", () => {
  it("lists the pool's tokens newest first, never a secret or its hash; a viewer may list", async () => {
    const created = await call("create", { poolId: world.pools.b, maxUses: 5 });
    const response = await call("list", { poolId: world.pools.b }, world.keys.viewer);
    expect(response.status).toBe(200);
    expect(response.body.joinTokens[0]).toEqual(Object.fromEntries(TOKEN_FIELDS.map((field) => [field, created.body[field]])));
    for (const token of response.body.joinTokens) expect(Object.keys(token).sort()).toEqual(TOKEN_FIELDS);
    expect(response.text).not.toContain(created.body.bearer.split(".")[1]);
    expect(response.text).not.toMatch(/secret/i);
  });

  it("shows uses as machines join", async () => {
    const { body } = await call("create", { poolId: world.pools.b, maxUses: 3 });
    await join(await makeMachine(), body.bearer);
    const listed = (await call("list", { poolId: world.pools.b })).body.joinTokens.find((token: { id: string }) => token.id === body.id);
    expect(listed.uses).toBe(1);
  });

  it("does not list another pool's tokens", async () => {
    const { body } = await call("create", { poolId: world.pools.b });
    const ids = (await call("list", {})).body.joinTokens.map((token: { id: string }) => token.id);
    expect(ids).not.toContain(body.id);
  });
});

describe("joinTokens/revoke", () => {
  it("revokes: the token stops working; revoking again returns it unchanged", async () => {
    const { body } = await call("create", { maxUses: 5 });
    const revoked = await call("revoke", { tokenId: body.id });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    expect(revoked.text).not.toContain(body.bearer.split(".")[1]);
    expect((await join(await makeMachine(), body.bearer)).status).toBe(401);

    const again = await call("revoke", { tokenId: body.id });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(revoked.body);
  });

  it("a token of another pool → NOT_FOUND; a viewer → PERMISSION_DENIED", async () => {
    const { body } = await call("create", { poolId: world.pools.b });
    expect(errorCode(await call("revoke", { tokenId: body.id }))).toBe("NOT_FOUND");
    expect(errorCode(await call("revoke", { poolId: world.pools.b, tokenId: body.id }, world.keys.viewer))).toBe("PERMISSION_DENIED");
  });

  it("works on an archived pool", async () => {
    const db = await getDb();
    const { body } = await call("create", {});
    await db.joinToken.update({ where: { id: body.id }, data: { poolId: world.pools.archived } });
    expect((await call("revoke", { poolId: world.pools.archived, tokenId: body.id })).status).toBe(200);
  });

  it("a malformed tokenId → INVALID_ARGUMENT", async () => {
    const response = await call("revoke", { tokenId: "bcjt_ABC.secret" });
    expect(response.status).toBe(400);
    expect(response.body.error.details[0].field).toBe("tokenId");
  });
});
