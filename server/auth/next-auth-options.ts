import "server-only";
import type { NextAuthOptions } from "next-auth";
import type { OAuthConfig } from "next-auth/providers/oauth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "../db/client";
import { env } from "../env";
import { nextAuthSecret } from "./nextauth-secret";
import { oidcIdentity } from "./oidc-identity";
import { clientAddress } from "./client-address";
import { authorizeCredentials } from "./authorize-credentials";
import { log } from "../log";

export const OIDC_PROVIDER_ID = "oidc";
const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

/** Whether the OIDC provider is switched on: all three BC_OIDC_* variables set. */
export function oidcConfigured(): boolean {
  const { BC_OIDC_ISSUER, BC_OIDC_CLIENT_ID, BC_OIDC_CLIENT_SECRET } = env();
  return Boolean(BC_OIDC_ISSUER && BC_OIDC_CLIENT_ID && BC_OIDC_CLIENT_SECRET);
}

/** Why an OIDC identity may not sign in, as /signin?error=… shows it; null: it may, as this users row. */
type OidcVerdict = { userId: string } | { refused: "OidcNoEmail" | "OidcEmailNotVerified" | "OidcUnknownUser" };

/** The `users` row an OIDC identity maps to: by verified email only, an enabled user; none, no access. */
async function userForOidcSignIn(profile: unknown, account: { access_token?: string | null } | null): Promise<OidcVerdict> {
  const identity = await oidcIdentity({ issuer: env().BC_OIDC_ISSUER!, idTokenClaims: profile, accessToken: account?.access_token });
  if (!identity.email) return { refused: "OidcNoEmail" };
  if (!identity.emailVerified) return { refused: "OidcEmailNotVerified" };
  const db = await getDb();
  const user = await db.user.findUnique({ where: { email: identity.email }, select: { id: true, disabledAt: true } });
  if (!user || user.disabledAt) {
    log.info("oidc: sign-in refused, no enabled users row for the verified email", { source: identity.source });
    return { refused: "OidcUnknownUser" };
  }
  return { userId: user.id };
}

function oidcProvider(): OAuthConfig<Record<string, unknown>> {
  const { BC_OIDC_ISSUER, BC_OIDC_CLIENT_ID, BC_OIDC_CLIENT_SECRET } = env();
  return {
    id: OIDC_PROVIDER_ID,
    name: "single sign-on",
    type: "oauth",
    wellKnown: `${BC_OIDC_ISSUER!.replace(/\/$/, "")}/.well-known/openid-configuration`,
    clientId: BC_OIDC_CLIENT_ID,
    clientSecret: BC_OIDC_CLIENT_SECRET,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    checks: ["pkce", "state"],
    profile: (profile) => ({
      id: String(profile.sub),
      email: typeof profile.email === "string" ? profile.email : null,
      name: typeof profile.name === "string" ? profile.name : null,
    }),
  };
}

/**
 * next-auth v4: local accounts (Credentials against `users`), an OIDC provider
 * when configured, JWT sessions whose subject is our `users.id`. Built per
 * request because the secret may first have to be read or generated.
 */
export async function nextAuthOptions(): Promise<NextAuthOptions> {
  const credentials = CredentialsProvider({
    id: "credentials",
    name: "email and password",
    credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
    authorize: async (input, request) =>
      input?.email && input.password ? authorizeCredentials(input.email, input.password, clientAddress(request?.headers ?? {})) : null,
  });
  return {
    secret: await nextAuthSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/signin", error: "/signin" },
    providers: oidcConfigured() ? [credentials, oidcProvider()] : [credentials],
    callbacks: {
      async signIn({ account, profile }) {
        if (account?.provider !== OIDC_PROVIDER_ID) return true;
        const verdict = await userForOidcSignIn(profile, account);
        return "userId" in verdict ? true : `/signin?error=${verdict.refused}`;
      },
      async jwt({ token, user, account, profile }) {
        // On sign-in only: make the token's subject our users.id.
        if (account?.provider === OIDC_PROVIDER_ID) {
          const verdict = await userForOidcSignIn(profile, account);
          if ("userId" in verdict) return { ...token, sub: verdict.userId };
          // the row vanished (or was disabled) since signIn: fail closed, never the provider's subject
          const { sub: _providerSubject, email: _email, name: _name, picture: _picture, ...rest } = token;
          return rest;
        }
        if (account && user) token.sub = user.id;
        return token;
      },
    },
  };
}
