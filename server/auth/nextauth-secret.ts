import "server-only";
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { connectionTarget } from "../db/connection-target";
import { env } from "../env";
import { log } from "../log";

export const MISSING_SECRET_MESSAGE =
  "NEXTAUTH_SECRET must be set when DATABASE_URL is set: it signs the console's session cookies " +
  "(generate one with `openssl rand -base64 32`).";

/** No secret can be had: sign-in is not configured on this server. */
export class MissingSecretError extends Error {
  constructor() {
    super(MISSING_SECRET_MESSAGE);
    this.name = "MissingSecretError";
  }
}

let cached: Promise<string> | undefined;

/**
 * The secret that encrypts the console's session JWTs: NEXTAUTH_SECRET, or,
 * with the embedded database and no secret, one generated once into
 * `.data/nextauth-secret` (beside the PGlite directory, mode 0600), so that a
 * fresh clone's `npm run dev` signs in without setup. With DATABASE_URL a
 * missing secret is a configuration error, never silently generated: several
 * instances must share it.
 */
export function nextAuthSecret(): Promise<string> {
  cached ??= resolveSecret().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

async function resolveSecret(): Promise<string> {
  const configured = env().NEXTAUTH_SECRET;
  if (configured) return configured;
  const target = connectionTarget();
  if (target.kind === "postgres") throw new MissingSecretError();
  const dataDir = /^[a-z]+:\/\//.test(target.dir)
    ? path.resolve(/*turbopackIgnore: true*/ process.cwd(), ".data")
    : path.dirname(target.dir);
  const file = path.join(dataDir, "nextauth-secret");
  try {
    return (await readFile(file, "utf8")).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  try {
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return (await readFile(file, "utf8")).trim();
    throw error;
  }
  log.info("NEXTAUTH_SECRET is not set: generated a development secret for the embedded database", { file });
  return secret;
}
