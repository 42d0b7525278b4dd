import "server-only";
import type { Db } from "../db/client";
import { hashSecret } from "../auth/credentials";
import { AdminError } from "../admin/admin-error";
import { addGrant } from "../admin/add-grant";
import { createPool } from "../admin/create-pool";
import { createServiceKey } from "../admin/create-service-key";
import { createSite } from "../admin/create-site";
import { createTenant } from "../admin/create-tenant";
import { createUser } from "../admin/create-user";
import { setPoolArchived } from "../admin/set-pool-archived";
import { addTpmAllowedKey } from "../attestation/allow-list/tpm-allow-list";
import { upsertDiscoveredMachines } from "../attestation/discovery/upsert-discovered-machines";
import { log } from "../log";
import {
  DEMO_DISCOVERED_MACHINES,
  DEMO_ENROLLMENT_KEYS,
  DEMO_JOIN_TOKEN_MAX_USES,
  DEMO_JOIN_TOKEN_TTL_MS,
  DEMO_JOIN_TOKENS,
  DEMO_PASSWORD,
  DEMO_POOLS,
  DEMO_SERVICE_KEYS,
  DEMO_SITES,
  DEMO_TENANTS,
  DEMO_TPM_ALLOWED_KEYS,
  DEMO_USERS,
} from "./demo-data";
import { seedDemoJoinRequests } from "./demo-join-requests";
import { seedDemoNodes } from "./demo-nodes";
import { seedDemoNodeAttestation } from "./demo-node-attestation";
import { seedQuorumPool } from "./demo-quorum-pool";
import { seedBootPool } from "./demo-boot-pool";
import { seedDemoRules } from "./demo-rules";

const SEED_ACTOR = "seed";

/** A demo thing someone has since changed (a password, a name) is left as it is. */
async function leaveChangedAlone(what: Promise<unknown>): Promise<void> {
  try {
    await what;
  } catch (error) {
    if (!(error instanceof AdminError)) throw error;
    log.info("demo data: left as it is", { reason: error.message });
  }
}

/**
 * Creates SPEC Part C's demo data through the operator's own domain functions
 * (the ones `npm run admin` calls: one way to make a tenant, a user, a grant),
 * each change recorded as an event with the actor `seed`. Idempotent: what
 * exists is left as it is (a demo request someone has since decided stays
 * decided), what is missing is created.
 */
export async function seedDemoData(db: Db, now: Date = new Date()): Promise<{ joinRequestsCreated: number; nodesCreated: number }> {
  const admin = { db, actor: SEED_ACTOR, now };
  for (const tenant of DEMO_TENANTS) await leaveChangedAlone(createTenant({ ...admin, input: tenant }));
  for (const site of DEMO_SITES) await leaveChangedAlone(createSite({ ...admin, input: site }));
  for (const { archived, ...pool } of DEMO_POOLS) {
    await leaveChangedAlone(
      createPool({ ...admin, input: pool }).then(async ({ outcome }) => {
        if (archived && outcome === "created")
          await setPoolArchived({ ...admin, archived: true, input: { tenantId: pool.tenantId, id: pool.id } });
      }),
    );
  }
  await leaveChangedAlone(seedQuorumPool(admin));
  await leaveChangedAlone(seedBootPool(admin));
  for (const user of DEMO_USERS) {
    await leaveChangedAlone(createUser({ ...admin, input: { email: user.email, name: user.name, password: DEMO_PASSWORD } }));
    for (const { tenantId, poolId, role } of user.grants) {
      await leaveChangedAlone(addGrant({ ...admin, input: { tenantId, poolId, role, subject: { userEmail: user.email } } }));
    }
  }
  for (const key of DEMO_SERVICE_KEYS) {
    await leaveChangedAlone(
      createServiceKey({ ...admin, input: { tenantId: key.tenantId, id: key.id, name: key.name }, secret: key.secret }),
    );
    const { tenantId, poolId, role } = key.grant;
    await leaveChangedAlone(addGrant({ ...admin, input: { tenantId, poolId, role, subject: { serviceKeyId: key.id } } }));
  }
  // Join tokens and enrollment keys carry the published demo secrets; made
  // with these fixed ids and secrets here (operators make theirs with
  // joinTokens/create and `npm run admin -- enrollment-keys`).
  for (const { secret, ...token } of DEMO_JOIN_TOKENS) {
    await db.joinToken.upsert({
      where: { id: token.id },
      update: {},
      create: {
        ...token,
        secretHash: hashSecret(secret),
        maxUses: DEMO_JOIN_TOKEN_MAX_USES,
        expiresAt: new Date(now.getTime() + DEMO_JOIN_TOKEN_TTL_MS),
        createdBy: SEED_ACTOR,
      },
    });
  }
  for (const { secret, ...key } of DEMO_ENROLLMENT_KEYS) {
    await db.siteEnrollmentKey.upsert({
      where: { id: key.id },
      update: {},
      create: { ...key, secretHash: hashSecret(secret), maxUses: DEMO_JOIN_TOKEN_MAX_USES },
    });
  }
  const known = await db.discoveredMachine.count({ where: { siteId: "fra1" } });
  if (known === 0) {
    const machines = DEMO_DISCOVERED_MACHINES.map(({ systemUuid, macAddresses, assignedPoolId }) => ({
      systemUuid,
      macAddresses,
      assignedPoolId,
    }));
    await upsertDiscoveredMachines({ ...admin, input: { tenantId: "acme", siteId: "fra1", machines } });
  }
  for (const { tenantId, ekSha256, note } of DEMO_TPM_ALLOWED_KEYS) {
    await addTpmAllowedKey({ ...admin, input: { tenantId, ekSha256, note } });
  }
  // The admissions sign certificates: they need the CA key (BC_CA_KEY_ENCRYPTION_KEY with DATABASE_URL).
  const joinRequestsCreated = await seedDemoJoinRequests(db, now);
  const nodesCreated = await seedDemoNodes(db, now);
  await seedDemoNodeAttestation(db, now); // SPEC I3: gpu-a's nodes quote with the software TPMs they joined with
  await seedDemoRules(db, now);
  return { joinRequestsCreated, nodesCreated };
}
