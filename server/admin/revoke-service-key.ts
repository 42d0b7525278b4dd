import "server-only";
import type { Db } from "../db/client";
import { serviceKeyRefInput } from "@/lib/validations/admin";
import { AdminError, parseAdminInput, type AdminOutcome } from "./admin-error";
import { recordAdminChange, type AdminActor } from "./record-admin-change";

/** Revokes a service key: its next call is 401. Already revoked → unchanged. */
export async function revokeServiceKey(args: { db: Db; actor: AdminActor; now: Date; input: unknown }) {
  const { tenantId, id } = parseAdminInput(serviceKeyRefInput, args.input);
  return args.db.$transaction(async (tx) => {
    const { count } = await tx.serviceKey.updateMany({ where: { id, tenantId, revokedAt: null }, data: { revokedAt: args.now } });
    const key = await tx.serviceKey.findFirst({
      where: { id, tenantId },
      select: { id: true, tenantId: true, name: true, createdAt: true, revokedAt: true },
    });
    if (!key) throw new AdminError(`service key bcsk_${id} not found in tenant ${tenantId}`, "NOT_FOUND");
    const outcome: AdminOutcome = count > 0 ? "changed" : "unchanged";
    if (outcome === "changed") {
      await recordAdminChange(tx, { actor: args.actor, noun: "service-key", verb: "revoke", tenantId, id: `bcsk_${id}`, now: args.now });
    }
    return { outcome, serviceKey: key };
  });
}
