import "server-only";
import type { Db } from "../db/client";
import { roleName } from "../auth/roles";
import { tenantIdField } from "@/lib/validations/fields";
import { z } from "zod";
import { parseAdminInput } from "./admin-error";

export interface GrantListing {
  id: string;
  tenantId: string;
  /** null: every pool of the tenant */
  poolId: string | null;
  role: string;
  /** the user's email, or `bcsk_<id>` */
  subject: string;
  createdAt: Date;
}

/** A tenant's role grants, to users and service keys. */
export async function listGrants(db: Db, input: unknown): Promise<GrantListing[]> {
  const { tenantId } = parseAdminInput(z.strictObject({ tenantId: tenantIdField }), input);
  const grants = await db.roleGrant.findMany({
    where: { tenantId },
    select: { id: true, tenantId: true, poolId: true, role: true, createdAt: true, user: { select: { email: true } }, serviceKeyId: true },
    orderBy: { id: "asc" },
  });
  return grants.map(({ user, serviceKeyId, role, ...grant }) => ({
    ...grant,
    role: roleName(role),
    subject: user?.email ?? `bcsk_${serviceKeyId}`,
  }));
}
