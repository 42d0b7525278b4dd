import "server-only";
import type { Db } from "../db/client";
import { hashPassword, verifyPassword } from "../auth/password";
import { newId } from "@/lib/ids";
import { createUserInput } from "@/lib/validations/admin";
import { parseAdminInput } from "./admin-error";
import { insertOrCompare } from "./insert-or-compare";
import { recordAdminChange, type AdminActor } from "./record-admin-change";

/**
 * Creates a console user. With a password, a local account (only its scrypt
 * hash is stored); without, a single-sign-on-only user (an OIDC identity
 * with this verified email signs in as it). The same user again, with the
 * same password, changes nothing; it has no access until a grant is added.
 */
export async function createUser(args: { db: Db; actor: AdminActor; now: Date; input: unknown }) {
  const { email, name, password } = parseAdminInput(createUserInput, args.input);
  const passwordHash = password === undefined ? null : await hashPassword(password);
  return args.db.$transaction(async (tx) => {
    const id = newId("usr", args.now.getTime());
    const result = await insertOrCompare({
      describe: `user ${email}`,
      insert: async () =>
        (await tx.user.createMany({ data: [{ id, email, name, passwordHash, createdAt: args.now }], skipDuplicates: true })).count,
      read: () =>
        tx.user.findUnique({ where: { email }, select: { id: true, email: true, name: true, passwordHash: true, disabledAt: true } }),
      differences: async (user) => [
        ...(user.name === name ? [] : [`the name "${user.name}"`]),
        ...(await passwordDifference(user.passwordHash, password)),
        ...(user.disabledAt ? ["disabled"] : []),
      ],
    });
    const { passwordHash: _secret, ...user } = result.row;
    if (result.outcome === "created") {
      await recordAdminChange(tx, {
        actor: args.actor,
        noun: "user",
        verb: "create",
        tenantId: null,
        id: user.id,
        now: args.now,
        data: { email, signIn: password === undefined ? "sso" : "password" },
      });
    }
    return { outcome: result.outcome, user };
  });
}

async function passwordDifference(stored: string | null, password: string | undefined): Promise<string[]> {
  if (password === undefined) return stored === null ? [] : ["a password (this create gave none)"];
  if (stored === null) return ["no password (single sign-on only)"];
  return (await verifyPassword(password, stored)) ? [] : ["another password"];
}
