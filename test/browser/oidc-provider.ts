import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import Provider from "oidc-provider";

// A real OpenID provider on loopback for the SSO tests: panva's certified
// `oidc-provider`, with its development login and consent pages. Each test
// account says where the provider puts its email claims: in the ID token too,
// or only in the UserInfo answer (OpenID Connect Core's default for claims a
// scope requests). The login name typed on the provider's page is the account.

export interface TestAccount {
  email: string;
  emailVerified: boolean;
  /** "id_token": email claims in the ID token and UserInfo; "userinfo": only in UserInfo */
  claimsIn: "id_token" | "userinfo";
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export async function startOidcProvider(options: {
  redirectUri: string;
  accounts: Record<string, TestAccount>;
}): Promise<TestOidcProvider> {
  const clientId = "bc-console-test";
  const clientSecret = "bc-console-test-secret-0123456789abcdef";
  // The issuer needs the port before the provider exists: listen on a placeholder first.
  const probe = new Provider("http://127.0.0.1", {});
  const placeholder = probe.listen(0);
  await new Promise((resolve) => placeholder.once("listening", resolve));
  const port = (placeholder.address() as AddressInfo).port;
  await new Promise((resolve) => placeholder.close(resolve));

  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // scope claims may go into the ID token; each account's claims(use) decides whether they do
    conformIdTokenClaims: false,
    async findAccount(_context: unknown, id: string) {
      const account = options.accounts[id];
      if (!account) return undefined;
      return {
        accountId: id,
        async claims(use: string) {
          const email =
            account.claimsIn === "id_token" || use === "userinfo" ? { email: account.email, email_verified: account.emailVerified } : {};
          return { sub: id, name: id, ...email };
        },
      };
    },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ["bc-test-cookie-key"] },
  });
  const server: Server = provider.listen(port);
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
