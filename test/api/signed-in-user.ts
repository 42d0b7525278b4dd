import { randomBytes } from "node:crypto";
import { expect, inject } from "vitest";
import { getDb } from "@/server/db/client";
import { hashPassword } from "@/server/auth/password";
import type { Role } from "@/server/auth/roles";
import { newId } from "@/lib/ids";
import { apiUrl } from "./api-client";

export interface SignedInUser {
  id: string;
  email: string;
  /** the session cookie, for `headers: { cookie, origin }` */
  cookie: string;
}

/** The headers a console session's call carries: its cookie, and the console's origin (mutations need it). */
export const sessionHeaders = (user: SignedInUser) => ({ cookie: user.cookie, origin: inject("baseUrl") });

/** A new local user with `grants`, signed in through next-auth's credentials form as the console does. */
export async function signedInUser(grants: { tenantId: string; poolId: string | null; role: Role }[]): Promise<SignedInUser> {
  const db = await getDb();
  const id = newId("usr");
  const email = `user-${randomBytes(4).toString("hex")}@example.test`;
  const password = "user-password-123";
  await db.user.create({
    data: {
      id,
      email,
      name: email,
      passwordHash: await hashPassword(password),
      grants: { create: grants.map((grant) => ({ id: newId("grant"), ...grant })) },
    },
  });
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const index = pair!.indexOf("=");
      jar.set(pair!.slice(0, index), pair!.slice(index + 1));
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const csrf = await fetch(apiUrl("/api/auth/csrf"));
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signIn = await fetch(apiUrl("/api/auth/callback/credentials"), {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie(), origin: inject("baseUrl") },
    body: new URLSearchParams({ csrfToken, email, password, json: "true", callbackUrl: apiUrl("/") }).toString(),
  });
  keep(signIn);
  expect([...jar.keys()].some((name) => name.endsWith("next-auth.session-token"))).toBe(true);
  return { id, email, cookie: cookie() };
}
