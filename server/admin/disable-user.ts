import "server-only";
import type { Db } from "../db/client";
import { emailField } from "@/lib/validations/admin";
import { z } from "zod";
import { AdminError, parseAdminInput, type AdminOutcome } from "./admin-error";
import { recordAdminChange, type AdminActor } from "./record-admin-change";

/**
 * Disables a user: sign-in is refused, and sessions already open stop
 * working at their next request (sessions read the users row every time).
 * Grants stay, inert, so the record of who could do what survives. The
 * change is recorded in every tenant the user held grants in.
 */
export async function disableUser(args: { db: Db; actor: AdminActor; now: Date; input: unknown }) {
  const { email } = parseAdminInput(z.strictObject({ email: emailField }), args.input);
  return args.db.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({ where: { email, disabledAt: null }, data: { disabledAt: args.now } });
    const user = await tx.user.findUnique({
      where: { email },
      select: { id: true, email: true, name: true, disabledAt: true, grants: { select: { tenantId: true } } },
    });
    if (!user) throw new AdminError(`user ${email} not found`, "NOT_FOUND");
    const outcome: AdminOutcome = count > 0 ? "changed" : "unchanged";
    if (outcome === "changed") {
      const tenants = [...new Set(user.grants.map((grant) => grant.tenantId))];
      for (const tenantId of tenants.length ? tenants : [null]) {
        await recordAdminChange(tx, {
          actor: args.actor,
          noun: "user",
          verb: "disable",
          tenantId,
          id: user.id,
          now: args.now,
          data: { email },
        });
      }
    }
    const { grants: _grants, ...row } = user;
    return { outcome, user: row };
  });
}
