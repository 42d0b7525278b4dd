import "server-only";
import type { Db } from "../db/client";
import { roleName } from "../auth/roles";
import { tenantIdField } from "@/lib/validations/fields";
import { z } from "zod";
import { parseAdminInput } from "./admin-error";

/** A tenant's service keys with their grants; never a secret or its hash. */
export async function listServiceKeys(db: Db, input: unknown) {
  const { tenantId } = parseAdminInput(z.strictObject({ tenantId: tenantIdField }), input);
  const keys = await db.serviceKey.findMany({
    where: { tenantId },
    select: {
      id: true,
      tenantId: true,
      name: true,
      createdAt: true,
      revokedAt: true,
      grants: { select: { poolId: true, role: true }, orderBy: { id: "asc" } },
    },
    orderBy: { id: "asc" },
  });
  return keys.map((key) => ({ ...key, grants: key.grants.map((grant) => ({ poolId: grant.poolId, role: roleName(grant.role) })) }));
}
