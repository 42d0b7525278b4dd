import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import { getDb } from "../db/client";
import { createJoinTokenRow } from "@/test/api/machine";
import { createWorld } from "@/test/api/world";
import { ApiError } from "../api/errors";
import { deferJoin } from "./defer-join";

// The race a burst of one known machine's CSR hit (join-concurrency.test.ts):
// a join reads its CSR's history, a concurrent join of the same CSR is
// admitted, and the first one's attestors then see that node and defer it as
// machine-already-joined. Made to happen every time: the node is there
// before the deferral, as the attestors saw it.
it("a deferral of a CSR that has a node answers 409 as the CSR's retry would, and records no request and no use", async () => {
  const world = await createWorld();
  const db = await getDb();
  const token = await createJoinTokenRow(world.tenantId, world.pools.a, { maxUses: 5 });
  const tokenId = token.slice(5).split(".")[0]!;
  const csrSha256 = randomBytes(32).toString("hex");
  const nodeId = `node-${randomBytes(6).toString("hex")}`;
  await db.$executeRaw`
    INSERT INTO nodes (id, tenant_id, site_id, pool_id, hostname, system_uuid, serial_number, csr_sha256, cert_serial, cert_not_before, cert_not_after, last_seen_at)
    VALUES (${nodeId}, ${world.tenantId}, ${world.siteId}, ${world.pools.a}, ${`${nodeId}.test`}, ${`uuid-${nodeId}`}, 'SN-1', ${csrSha256}, ${nodeId}, now(), now() + interval '30 days', now())`;

  const deferral = deferJoin({
    db,
    credential: { kind: "join-token", id: tokenId, tenantId: world.tenantId, poolId: world.pools.a, actor: `bcjt_${tokenId}` },
    tenantId: world.tenantId,
    siteId: world.siteId,
    poolId: world.pools.a,
    reasons: ["machine-already-joined"],
    machine: {
      hostname: `other-${nodeId}.test`,
      systemUuid: `uuid-${nodeId}`,
      serialNumber: "SN-1",
      macAddresses: [],
      tpmEkSha256: null,
      tpmEkProven: false,
    },
    csrSha256,
    limits: { maxPendingPerPool: 100, maxPendingPerSite: 100 },
    now: new Date(),
  });
  const refusal = await deferral.then(
    () => null,
    (error: unknown) => error,
  );
  expect(refusal).toBeInstanceOf(ApiError);
  expect(refusal).toMatchObject({ code: "INVALID_STATE", message: expect.stringContaining("already admitted") });
  expect(await db.joinRequest.count({ where: { tenantId: world.tenantId, csrSha256 } })).toBe(0);
  expect((await db.joinToken.findUniqueOrThrow({ where: { id: tokenId } })).uses).toBe(0);
});
