import "server-only";
import { getDb } from "../db/client";
import { env, type Env } from "../env";
import { verifyPassword } from "../auth/password";
import { DEMO_PASSWORD, DEMO_USERS } from "../seed/demo-data";

const ROLE_LABELS = { "pool-admin": "pool admin", "pool-viewer": "pool viewer", "tenant-admin": "tenant admin" } as const;

export type DemoAccount = { email: string; name: string; role: string };

/** Demo mode: BC_DEMO_MODE, or by default the embedded database (no DATABASE_URL). */
export function demoMode(settings: Pick<Env, "BC_DEMO_MODE" | "DATABASE_URL"> = env()): boolean {
  const { BC_DEMO_MODE, DATABASE_URL } = settings;
  return BC_DEMO_MODE ? BC_DEMO_MODE === "1" : !DATABASE_URL;
}

let listed: Promise<DemoAccount[]> | undefined;

/**
 * The demo users (SPEC Part C) that exist and still have the demo password,
 * for the sign-in page to list — only in demo mode, and worked out once per
 * process: each check is a scrypt, which no page load should pay for (nor an
 * anonymous caller be able to make the server pay for).
 */
export function listDemoAccounts(): Promise<DemoAccount[]> {
  if (!demoMode()) return Promise.resolve([]);
  listed ??= findDemoAccounts().catch((error: unknown) => {
    listed = undefined; // a database hiccup is tried again on the next load
    throw error;
  });
  return listed;
}

async function findDemoAccounts(): Promise<DemoAccount[]> {
  const db = await getDb();
  const users = await db.user.findMany({
    where: { email: { in: DEMO_USERS.map((user) => user.email) } },
    select: { email: true, name: true, passwordHash: true },
  });
  const found = new Map(users.map((user) => [user.email, user]));
  const accounts = await Promise.all(
    DEMO_USERS.map(async (demo) => {
      const user = found.get(demo.email);
      if (!user?.passwordHash || !(await verifyPassword(DEMO_PASSWORD, user.passwordHash))) return null;
      const scope = demo.grants.map((grant) => `${ROLE_LABELS[grant.role]} on ${grant.poolId ?? `all ${grant.tenantId} pools`}`);
      return { email: demo.email, name: user.name, role: scope.join(", ") };
    }),
  );
  return accounts.filter((account) => account !== null);
}
