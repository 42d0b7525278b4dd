import { readFile } from "node:fs/promises";
import { userInfo } from "node:os";
import { parseArgs } from "node:util";
import { getDb, type Db } from "@/server/db/client";
import { UsageError } from "../shared/run-cli";
import { nounUsage, type AdminContext, type AdminNoun } from "./nouns/admin-command";

/**
 * Each noun's file, in the order the usage lists them, loaded only when its
 * noun runs: a command loads one noun and what it uses from server/, not
 * every noun's (measured, `npm run admin -- tenants list`: 3.4 → 2.2–2.5 CPU s,
 * 2.6 → 2.1 s). Every key is its noun's `name` (run-admin.test.ts).
 */
export const NOUN_FILES = {
  tenants: () => import("./nouns/tenants").then((file) => file.tenants),
  sites: () => import("./nouns/sites").then((file) => file.sites),
  pools: () => import("./nouns/pools").then((file) => file.pools),
  rules: () => import("./nouns/rules").then((file) => file.rules),
  users: () => import("./nouns/users").then((file) => file.users),
  grants: () => import("./nouns/grants").then((file) => file.grants),
  "service-keys": () => import("./nouns/service-keys").then((file) => file.serviceKeys),
  "enrollment-keys": () => import("./nouns/enrollment-keys").then((file) => file.enrollmentKeys),
  discovery: () => import("./nouns/discovery").then((file) => file.discovery),
  tpm: () => import("./nouns/tpm").then((file) => file.tpm),
  webhooks: () => import("./nouns/webhooks").then((file) => file.webhooks),
  notifications: () => import("./nouns/notifications").then((file) => file.notifications),
} satisfies Record<string, () => Promise<AdminNoun>>;

function loadNoun(name: string | undefined): Promise<AdminNoun> | undefined {
  return name !== undefined && Object.hasOwn(NOUN_FILES, name) ? NOUN_FILES[name as keyof typeof NOUN_FILES]() : undefined;
}

/** Every noun with its verbs: loads every noun, which only --help and a wrong noun need. */
export async function adminUsage(): Promise<string> {
  const nouns = await Promise.all(Object.values(NOUN_FILES).map((load) => load()));
  return `Usage: npm run admin -- <noun> <verb> [options]   (against DATABASE_URL, or the embedded database)
${nouns.map((noun) => `  ${noun.name.padEnd(15)} ${Object.keys(noun.verbs).join("|")}`).join("\n")}
npm run admin -- <noun> --help shows a noun's verbs and options.`;
}

/**
 * The usage the entry falls back on for a usage error carrying none of its
 * own. runAdmin gives each of its own the usage that fits (the whole, or the
 * noun's); this is for anything else.
 */
export const ADMIN_HELP = "npm run admin -- --help lists the nouns and their verbs.";

export interface AdminIo {
  print: (text: string) => void;
  readStdin: () => Promise<string>;
  readFile?: (path: string) => Promise<string>;
  /** an open database to use and leave open (tests); otherwise this process's, closed at the end */
  db?: Db;
}

/** The operator's recorded identity: `cli:<os user>`. */
export function cliActor(): string {
  let name = process.env.USER ?? "unknown";
  try {
    name = userInfo().username;
  } catch {
    // no passwd entry for this uid (some containers): keep $USER
  }
  return `cli:${name}`;
}

/** `npm run admin -- <noun> <verb> …`: parses, runs one verb, and throws what the CLI runner turns into exit codes. */
export async function runAdmin(argv: string[], io: AdminIo): Promise<void> {
  const [nounName, firstWord, ...afterVerb] = argv;
  if (nounName === "--help" || nounName === "-h") return io.print(await adminUsage());
  const noun = await loadNoun(nounName);
  if (!noun) throw new UsageError(nounName ? `unknown noun ${nounName}` : "", await adminUsage());
  // A verb may be two words (`tpm trust-ca add`): the longer name wins.
  const twoWords = `${firstWord} ${afterVerb[0]}`;
  const twoWordVerb = twoWords in noun.verbs;
  const verbName = twoWordVerb ? twoWords : firstWord;
  const rest = twoWordVerb ? afterVerb.slice(1) : afterVerb;
  if (verbName === "--help" || verbName === "-h") return io.print(nounUsage(noun));
  const verb = verbName ? noun.verbs[verbName] : undefined;
  if (!verb) throw new UsageError(verbName ? `unknown verb ${noun.name} ${verbName}` : "", nounUsage(noun));

  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: false,
      options: { ...verb.options, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), nounUsage(noun));
  }
  if (values.help) return io.print(nounUsage(noun));

  const db = io.db ?? (await getDb());
  const context: AdminContext = {
    db,
    actor: cliActor(),
    now: new Date(),
    json: values.json === true,
    print: io.print,
    readStdin: io.readStdin,
    readFile: io.readFile ?? ((path) => readFile(path, "utf8")),
  };
  try {
    await verb.run(context, values);
  } finally {
    if (!io.db) await db.$disconnect();
  }
}
