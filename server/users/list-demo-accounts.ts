import "server-only";
import { getDb } from "../db/client";
import { verifyPassword } from "../auth/password";
import { DEMO_PASSWORD, DEMO_USERS } from "../seed/demo-data";

const ROLE_LABELS = { "pool-admin": "pool admin", "pool-viewer": "pool viewer", "tenant-admin": "tenant admin" } as const;

/**
 * The demo users (SPEC Part C) that exist and still have the demo password,
 * for the sign-in page to list; none once the demo seed is absent or an
 * operator changed their passwords.
 */
export async function listDemoAccounts(): Promise<{ email: string; name: string; role: string }[]> {
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
