import "server-only";
import { log } from "../log";

// Who an OpenID provider says signed in, as the console needs it: an email
// and whether the provider verified it. OpenID Connect Core lets a provider
// return `email`/`email_verified` in the ID token or only from the UserInfo
// endpoint (the default for claims requested by scope, §5.4): read the ID
// token first and, when they are missing there, ask UserInfo with the access
// token, whose `sub` must be the ID token's (§5.3.2).

export interface OidcIdentity {
  email: string | null;
  emailVerified: boolean;
  /** where the email came from */
  source: "id_token" | "userinfo" | "none";
}

type Claims = Record<string, unknown>;

const isVerified = (value: unknown) => value === true || value === "true";

// The provider's endpoints, from its discovery document: configuration, not state.
const userInfoEndpoints = new Map<string, Promise<string | null>>();

function userInfoEndpoint(issuer: string): Promise<string | null> {
  let endpoint = userInfoEndpoints.get(issuer);
  if (!endpoint) {
    endpoint = fetch(`${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(5_000) })
      .then(async (response) => ((await response.json()) as { userinfo_endpoint?: string }).userinfo_endpoint ?? null)
      .catch(() => null);
    userInfoEndpoints.set(issuer, endpoint);
    // a failed lookup is tried again at the next sign-in
    void endpoint.then((found) => found ?? userInfoEndpoints.delete(issuer));
  }
  return endpoint;
}

async function userInfo(issuer: string, accessToken: string): Promise<Claims | null> {
  const endpoint = await userInfoEndpoint(issuer);
  if (!endpoint) return null;
  const response = await fetch(endpoint, { headers: { authorization: `Bearer ${accessToken}` }, signal: AbortSignal.timeout(5_000) }).catch(
    () => null,
  );
  if (!response?.ok) {
    log.warn("oidc: UserInfo request failed", { status: response?.status ?? null });
    return null;
  }
  return (await response.json().catch(() => null)) as Claims | null;
}

export async function oidcIdentity(input: { issuer: string; idTokenClaims: unknown; accessToken?: string | null }): Promise<OidcIdentity> {
  const claims = (input.idTokenClaims ?? {}) as Claims;
  if (typeof claims.email === "string" && claims.email_verified !== undefined) {
    return { email: claims.email.trim().toLowerCase(), emailVerified: isVerified(claims.email_verified), source: "id_token" };
  }
  const fromUserInfo = input.accessToken ? await userInfo(input.issuer, input.accessToken) : null;
  if (fromUserInfo && fromUserInfo.sub !== claims.sub) {
    log.warn("oidc: UserInfo answered for another subject; ignored");
  } else if (fromUserInfo && typeof fromUserInfo.email === "string") {
    return { email: fromUserInfo.email.trim().toLowerCase(), emailVerified: isVerified(fromUserInfo.email_verified), source: "userinfo" };
  }
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : null;
  return { email, emailVerified: false, source: email ? "id_token" : "none" };
}
