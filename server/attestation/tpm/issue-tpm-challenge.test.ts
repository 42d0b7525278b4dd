import { randomBytes } from "node:crypto";
import { Client } from "pg";
import { expect, it } from "vitest";
import { getDb } from "../../db/client";
import { readEndorsementKey } from "@/lib/tpm/endorsement-key";
import { demoTpm } from "@/test/api/machine";
import { untilSomeoneWaitsOn } from "@/test/harness/lock-waits";
import { challengeLockSql, issueTpmChallenge } from "./issue-tpm-challenge";

// SPEC G4: a CSR holds at most one live challenge; a new one voids the
// earlier. Two challenges of one CSR at once must not both stay live, and
// once the CSR's use is counted nothing else orders them: the challenge's
// lock does. Made to happen every time: an earlier challenge's transaction
// is held open, its challenge written, and a new challenge must wait for its
// COMMIT and then void it.
it("a challenge issued while an earlier one of the CSR is being written waits for it and voids it", async () => {
  const db = await getDb();
  const tpm = demoTpm();
  const tenantId = `t-challenge-${randomBytes(4).toString("hex")}`;
  const csrSha256 = randomBytes(32).toString("hex");
  const lock = challengeLockSql(tenantId, csrSha256);
  const earlierId = `tpmc_earlier${randomBytes(6).toString("hex")}`;

  const holder = new Client({ connectionString: process.env.DATABASE_URL });
  await holder.connect();
  try {
    await holder.query("BEGIN");
    await holder.query(lock.text, lock.values as unknown[]);
    await holder.query(
      `INSERT INTO tpm_challenges (id, tenant_id, csr_sha256, ek_sha256, ak_name, secret_hash, created_at, expires_at)
       VALUES ($1, $2, $3, 'ek', 'ak', $4, now(), now() + interval '5 minutes')`,
      [earlierId, tenantId, csrSha256, randomBytes(32)],
    );
    const later = issueTpmChallenge({
      db,
      countUse: async () => {},
      tenantId,
      csrSha256,
      ek: readEndorsementKey(tpm.ekPublicKeyPem),
      akName: tpm.akName,
      pcrSelection: [],
      now: new Date(),
    });
    await untilSomeoneWaitsOn(holder, process.env.DATABASE_URL!);
    await holder.query("COMMIT");
    const { challengeId } = await later;

    const live = await db.tpmChallenge.findMany({ where: { tenantId, csrSha256, usedAt: null, voidedAt: null } });
    expect(live.map((challenge) => challenge.id)).toEqual([challengeId]);
    expect((await db.tpmChallenge.findUniqueOrThrow({ where: { id: earlierId } })).voidedAt).not.toBeNull();
  } finally {
    await holder.end();
  }
});
