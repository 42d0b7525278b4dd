import "server-only";
import type { Db } from "../db/client";
import type { Role } from "../auth/roles";

export interface UserListing {
  id: string;
  email: string;
  name: string;
  signIn: "password" | "sso";
  disabledAt: Date | null;
  createdAt: Date;
  grants: { tenantId: string; poolId: string | null; role: Role }[];
}

/** Every console user with their grants; never a password hash (only whether there is one). */
export async function listUsers(db: Db): Promise<UserListing[]> {
  const users = await db.user.findMany({
    select: {
      id: true,
      email: true,
      name: true,
      passwordHash: true,
      disabledAt: true,
      createdAt: true,
      grants: { select: { tenantId: true, poolId: true, role: true }, orderBy: [{ tenantId: "asc" }, { poolId: "asc" }] },
    },
    orderBy: { email: "asc" },
  });
  return users.map(({ passwordHash, ...user }) => ({ ...user, signIn: passwordHash ? "password" : "sso" }));
}
