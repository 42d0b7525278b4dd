import "server-only";
import type { Tx } from "../db/client";
import type { GrantSubject } from "@/lib/validations/admin";
import { AdminError } from "./admin-error";

export interface ResolvedSubject {
  /** how listings and events name it: the user's email, or `bcsk_<id>` */
  label: string;
  where: { userId: string } | { serviceKeyId: string };
}

/**
 * The user or service key a grant is for, locked for the rest of the
 * transaction so that concurrent grant changes of one subject take turns
 * (an identical grant is never added twice). A service key holds grants in
 * its own tenant only.
 */
export async function lockGrantSubject(tx: Tx, tenantId: string, subject: GrantSubject): Promise<ResolvedSubject> {
  if ("userEmail" in subject) {
    const [user] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM users WHERE email = ${subject.userEmail} FOR UPDATE`;
    if (!user)
      throw new AdminError(`user ${subject.userEmail} not found (create it with: users create --email ${subject.userEmail})`, "NOT_FOUND");
    return { label: subject.userEmail, where: { userId: user.id } };
  }
  const [key] = await tx.$queryRaw<{ id: string; tenantId: string }[]>`
    SELECT id, tenant_id AS "tenantId" FROM service_keys WHERE id = ${subject.serviceKeyId} FOR UPDATE`;
  if (!key) throw new AdminError(`service key bcsk_${subject.serviceKeyId} not found`, "NOT_FOUND");
  if (key.tenantId !== tenantId)
    throw new AdminError(`service key bcsk_${key.id} belongs to tenant ${key.tenantId}, not ${tenantId}`, "INVALID_ARGUMENT");
  return { label: `bcsk_${key.id}`, where: { serviceKeyId: key.id } };
}
