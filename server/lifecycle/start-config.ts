import "server-only";
import { parseEncryptionKey } from "../pki/ca-key-encryption";
import { MISSING_SECRET_MESSAGE } from "../auth/nextauth-secret";
import { InvalidEnvironmentError, parseEnv } from "../env";

// What a process checks before it serves anything (`npm start`'s app
// processes, `npm run worker`): a deployment on PostgreSQL that lacks a secret
// would otherwise run until the first sign-in or admission, then answer 500.
// The embedded database generates what it lacks (a developer's machine).

/** next-auth signs session JWTs with it: short secrets can be guessed offline. */
export const MIN_NEXTAUTH_SECRET_LENGTH = 32;

export interface StartConfig {
  /** the first thing that stops the start: one line naming the variable and how to make one */
  problem?: string;
  /** said in the log, but not a reason to refuse */
  warnings: string[];
}

export function checkStartConfig(variables: Record<string, string | undefined> = process.env): StartConfig {
  let parsed;
  try {
    parsed = parseEnv(variables);
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) return { problem: error.message, warnings: [] };
    throw error;
  }
  if (!parsed.DATABASE_URL) return { warnings: [] };

  const secret = variables.NEXTAUTH_SECRET;
  if (!secret) return { problem: MISSING_SECRET_MESSAGE, warnings: [] };
  if (secret.length < MIN_NEXTAUTH_SECRET_LENGTH) {
    return {
      problem:
        `NEXTAUTH_SECRET is ${secret.length} characters: use at least ${MIN_NEXTAUTH_SECRET_LENGTH} random ones ` +
        "(generate one with `openssl rand -base64 32`), the same on every instance.",
      warnings: [],
    };
  }
  const caKey = variables.BC_CA_KEY_ENCRYPTION_KEY;
  if (!caKey) {
    return {
      problem:
        "BC_CA_KEY_ENCRYPTION_KEY must be set when DATABASE_URL is set: it encrypts the tenant CAs' private keys " +
        "(generate one with `openssl rand -base64 32`), the same on every instance.",
      warnings: [],
    };
  }
  try {
    parseEncryptionKey(caKey);
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error), warnings: [] };
  }

  const warnings: string[] = [];
  const url = parsed.NEXTAUTH_URL;
  if (!url || new URL(url).protocol !== "https:") {
    warnings.push(
      `NEXTAUTH_URL is ${url ? `"${url}"` : "not set"}: session cookies are not marked Secure and may travel over plain http; ` +
        "set it to the console's https URL in production.",
    );
  }
  return { warnings };
}
