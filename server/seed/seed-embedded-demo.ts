import "server-only";
import { connectionTarget } from "../db/connection-target";
import { getDb } from "../db/client";
import { log } from "../log";
import { seedDemoData } from "./seed-demo-data";

/**
 * The embedded default is the demo: when the app starts on an embedded
 * database that holds no tenant yet, it seeds the demo data (SPEC Part C),
 * so a fresh clone's `npm run dev` serves a populated console. Opening the
 * database does not seed (the admin CLI may open a new one to start from
 * nothing), and with DATABASE_URL the demo data is only `npm run db:seed`.
 */
export async function seedEmbeddedDemoIfEmpty(): Promise<void> {
  if (connectionTarget().kind !== "pglite") return;
  const db = await getDb();
  if ((await db.tenant.count()) > 0) return;
  log.info("embedded database holds no tenant: seeding the demo data");
  await seedDemoData(db);
}
