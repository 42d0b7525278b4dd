// Runs before `next dev`: the embedded database is opened once here, which
// migrates it and, when new, seeds the demo data, so the first page is not
// the one that waits. With DATABASE_URL the migrations are applied and the
// demo data is left to `npm run db:seed`.
import { connectionTarget } from "@/server/db/connection-target";
import { getDb } from "@/server/db/client";
import { seedEmbeddedDemoIfEmpty } from "@/server/seed/seed-embedded-demo";
import { runNpmScript } from "../test/harness/run-npm-script";

async function main() {
  const target = connectionTarget();
  if (target.kind === "postgres") {
    await runNpmScript("db:migrate");
    console.log("Using DATABASE_URL. Demo data: npm run db:seed");
    return;
  }
  await seedEmbeddedDemoIfEmpty();
  const db = await getDb();
  const pending = await db.joinRequest.count({ where: { state: "pending" } });
  await db.$disconnect();
  // The console's address and a first call follow from the server itself
  // (server/lifecycle/dev-hint.ts): only it knows the port it got.
  console.log(`Embedded PostgreSQL (PGlite) in ${target.dir}: migrated, ${pending} pending join requests.`);
}

main().catch((error: unknown) => {
  console.error(`dev setup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
