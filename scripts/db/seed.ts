// npm run db:seed — SPEC Part C's demo data, idempotent; prints the demo credentials.
import { closeDb, getDb } from "@/server/db/client";
import { seedDemoData } from "@/server/seed/seed-demo-data";
import { DEMO_ENROLLMENT_KEYS, DEMO_JOIN_TOKENS, DEMO_PASSWORD, DEMO_SERVICE_KEYS, DEMO_USERS } from "@/server/seed/demo-data";

async function main() {
  const db = await getDb();
  try {
    const { joinRequestsCreated, nodesCreated } = await seedDemoData(db);
    console.log(`Demo data in place (${joinRequestsCreated} join requests and ${nodesCreated} nodes created this run).\n`);
    console.log(`Console users (password ${DEMO_PASSWORD}):`);
    for (const user of DEMO_USERS) console.log(`  ${user.email}`);
    console.log("Service keys (Authorization: Bearer …):");
    for (const key of DEMO_SERVICE_KEYS) console.log(`  bcsk_${key.id}.${key.secret}  ${key.name}`);
    console.log("Join tokens:");
    for (const token of DEMO_JOIN_TOKENS) console.log(`  bcjt_${token.id}.${token.secret}  pool ${token.poolId}`);
    console.log("Site enrollment keys:");
    for (const key of DEMO_ENROLLMENT_KEYS) console.log(`  bcse_${key.id}.${key.secret}  site ${key.tenantId}/${key.siteId}`);
  } finally {
    await closeDb();
  }
}

main().catch((error: unknown) => {
  console.error(`db:seed failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
