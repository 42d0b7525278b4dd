import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "../db/client";
import { principalFromSession } from "./session-principal";

/** The signed-in user of a Server Component render, or null; read once per request (layout and page share it). */
export const currentUser = cache(async () => {
  const jar = Object.fromEntries((await cookies()).getAll().map((cookie) => [cookie.name, cookie.value]));
  return principalFromSession(await getDb(), jar);
});

/** The signed-in user, or a redirect to the sign-in page that comes back to `returnTo`. */
export async function requireUser(returnTo: string) {
  const session = await currentUser();
  if (!session) redirect(`/signin?callbackUrl=${encodeURIComponent(returnTo)}`);
  return session;
}
