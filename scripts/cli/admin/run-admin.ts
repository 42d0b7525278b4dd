import { readFile } from "node:fs/promises";
import { userInfo } from "node:os";
import { parseArgs } from "node:util";
import { getDb, type Db } from "@/server/db/client";
import { UsageError } from "../shared/run-cli";
import { nounUsage, type AdminContext, type AdminNoun } from "./nouns/admin-command";
import { discovery } from "./nouns/discovery";
import { enrollmentKeys } from "./nouns/enrollment-keys";
import { grants } from "./nouns/grants";
import { notifications } from "./nouns/notifications";
import { pools } from "./nouns/pools";
import { rules } from "./nouns/rules";
import { serviceKeys } from "./nouns/service-keys";
import { sites } from "./nouns/sites";
import { tenants } from "./nouns/tenants";
import { tpm } from "./nouns/tpm";
import { users } from "./nouns/users";
import { webhooks } from "./nouns/webhooks";

const NOUNS: AdminNoun[] = [
  tenants,
  sites,
  pools,
  rules,
  users,
  grants,
  serviceKeys,
  enrollmentKeys,
  discovery,
  tpm,
  webhooks,
  notifications,
];

export const ADMIN_USAGE = `Usage: npm run admin -- <noun> <verb> [options]   (against DATABASE_URL, or the embedded database)
${NOUNS.map((noun) => `  ${noun.name.padEnd(15)} ${Object.keys(noun.verbs).join("|")}`).join("\n")}
npm run admin -- <noun> --help shows a noun's verbs and options.`;

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
  // A verb may be two words (`tpm trust-ca add`): the longer name wins.
  const twoWords = `${firstWord} ${afterVerb[0]}`;
  const twoWordVerb = NOUNS.some((noun) => noun.name === nounName && twoWords in noun.verbs);
  const verbName = twoWordVerb ? twoWords : firstWord;
  const rest = twoWordVerb ? afterVerb.slice(1) : afterVerb;
  if (nounName === "--help" || nounName === "-h") return io.print(ADMIN_USAGE);
  const noun = NOUNS.find((candidate) => candidate.name === nounName);
  if (!noun) throw new UsageError(nounName ? `unknown noun ${nounName}` : "");
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
