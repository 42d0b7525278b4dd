import type { ParseArgsConfig } from "node:util";

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig["options"]>;
import type { Db } from "@/server/db/client";
import { UsageError } from "../../shared/run-cli";

// The shape of `npm run admin -- <noun> <verb> …` (SPEC E1): each noun is a
// file declaring its verbs; run-admin.ts parses and dispatches.

export interface AdminContext {
  db: Db;
  /** `cli:<os user>`, recorded on every change */
  actor: string;
  now: Date;
  json: boolean;
  print: (text: string) => void;
  readStdin: () => Promise<string>;
  readFile: (path: string) => Promise<string>;
}

export type OptionValues = Record<string, string | boolean | undefined>;

export interface AdminVerb {
  /** the arguments after `<noun> <verb>`, for the usage text */
  synopsis: string;
  options: ParseArgsOptionsConfig;
  run: (context: AdminContext, values: OptionValues) => Promise<void>;
}

export interface AdminNoun {
  name: string;
  summary: string;
  verbs: Record<string, AdminVerb>;
}

export function nounUsage(noun: AdminNoun): string {
  const lines = Object.entries(noun.verbs).map(([verb, { synopsis }]) => `  npm run admin -- ${noun.name} ${verb} ${synopsis}`.trimEnd());
  return `${noun.summary}\nUsage:\n${lines.join("\n")}\nEvery verb takes --json (machine-readable output) and --help.`;
}

/** The value of a required string option, or a usage error naming it. */
export function required(values: OptionValues, name: string, noun: AdminNoun): string {
  const value = values[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`--${name} is required`, nounUsage(noun));
  return value;
}

export const text = (values: OptionValues, name: string): string | undefined => {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
};

/** `--pool <id>` or `--all-pools`: exactly one (null = every pool of the tenant). */
export function poolScope(values: OptionValues, noun: AdminNoun): string | null {
  const pool = text(values, "pool");
  if (pool !== undefined && values["all-pools"]) throw new UsageError("give --pool <poolId> or --all-pools, not both", nounUsage(noun));
  if (pool === undefined && !values["all-pools"]) throw new UsageError("give --pool <poolId> or --all-pools", nounUsage(noun));
  return pool ?? null;
}

/** `--subject` is a user's email or a service key id (`bcsk_` optional). */
export function grantSubject(values: OptionValues, noun: AdminNoun) {
  const subject = required(values, "subject", noun);
  return subject.includes("@") ? { userEmail: subject } : { serviceKeyId: subject.replace(/^bcsk_/, "") };
}
