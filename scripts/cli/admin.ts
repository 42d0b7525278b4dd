// npm run admin -- <noun> <verb> [options]: the operator's command line (SPEC E1).
// Tenants, sites, pools, users, grants, service keys, enrollment keys, discovery
// inventories, TPM allow-lists and webhooks, against DATABASE_URL or the
// embedded database. Usage errors exit 2 with the usage; failures exit 1 with
// one line; every change is an event. `npm run webhooks` and `npm run
// enrollment-keys` are this command with the noun given.
import { text } from "node:stream/consumers";
import { ADMIN_HELP, runAdmin } from "./admin/run-admin";
import { runCli } from "./shared/run-cli";

runCli("admin", ADMIN_HELP, (argv) => runAdmin(argv, { print: (line) => console.log(line), readStdin: () => text(process.stdin) }));
