import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "../db/client";
import { hashSecret, parseBearer } from "../auth/credentials";
import { verifyJoinBearer } from "../nodes/join-credential";
import { createEnrollmentKey, listEnrollmentKeys, revokeEnrollmentKey } from "./enrollment-keys";

let db: Db;
const tenantId = `t-ek-${randomBytes(4).toString("hex")}`;
const siteId = `s-ek-${randomBytes(4).toString("hex")}`;

beforeAll(async () => {
  db = await getDb();
  await db.tenant.create({ data: { id: tenantId, name: tenantId } });
  await db.site.create({ data: { id: siteId, tenantId, name: siteId } });
});

describe("site enrollment keys", () => {
  it("create returns the bearer once and stores only its secret's SHA-256; the key authenticates a join", async () => {
    const now = new Date();
    const key = await createEnrollmentKey({ db, tenantId, siteId, ttlSeconds: 3600, now });
    const bearer = parseBearer(`Bearer ${key.bearer}`)!;
    expect(bearer).toMatchObject({ prefix: "bcse", id: key.id });
    const stored = await db.siteEnrollmentKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(Buffer.from(stored.secretHash)).toEqual(Buffer.from(hashSecret(bearer.secret)));
    expect(stored.expiresAt?.getTime()).toBe(now.getTime() + 3600_000);
    const credential = await verifyJoinBearer(db, { ...bearer, prefix: "bcse" }, now);
    expect(credential).toMatchObject({ kind: "site-enrollment-key", tenantId, siteId, id: key.id });
  });

  it("list shows the site's keys without secrets; revoke is idempotent and stops the key", async () => {
    const key = await createEnrollmentKey({ db, tenantId, siteId, now: new Date() });
    const listed = await listEnrollmentKeys({ db, tenantId, siteId });
    expect(listed.map((k) => k.id)).toContain(key.id);
    expect(JSON.stringify(listed)).not.toContain(key.bearer.split(".")[1]);

    const first = await revokeEnrollmentKey({ db, tenantId, siteId, id: key.id, now: new Date() });
    const second = await revokeEnrollmentKey({ db, tenantId, siteId, id: key.id, now: new Date(Date.now() + 5000) });
    expect(second.revokedAt).toEqual(first.revokedAt);
    const bearer = parseBearer(`Bearer ${key.bearer}`)!;
    await expect(verifyJoinBearer(db, { ...bearer, prefix: "bcse" }, new Date())).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("refuses a site of another tenant, and an unknown key", async () => {
    await expect(createEnrollmentKey({ db, tenantId: "globex", siteId, now: new Date() })).rejects.toThrow(/not found/);
    await expect(revokeEnrollmentKey({ db, tenantId, siteId, id: "nosuchkey", now: new Date() })).rejects.toThrow(/not found/);
  });
});

describe("use limits (SPEC F4)", () => {
  it("a key has 1000 uses unless given maxUses; list shows uses and the limit", async () => {
    const plain = await createEnrollmentKey({ db, tenantId, siteId, now: new Date() });
    const limited = await createEnrollmentKey({ db, tenantId, siteId, maxUses: 3, now: new Date() });
    expect(plain).toMatchObject({ maxUses: 1000, uses: 0 });
    expect(limited).toMatchObject({ maxUses: 3, uses: 0 });
    expect((await listEnrollmentKeys({ db, tenantId, siteId })).find((key) => key.id === limited.id)).toMatchObject({
      maxUses: 3,
      uses: 0,
    });
  });
});
