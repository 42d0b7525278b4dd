// `npm run ha:up`: a highly available PostgreSQL on loopback (docs/high-availability.md):
// etcd, two members under Patroni with synchronous replication, HAProxy in
// front. Prints the DATABASE_URL (HAProxy's leader port) and returns; the
// cluster runs until `npm run ha:down`.
import { startHaCluster } from "@/test/harness/ha-cluster";
import { ensureSystemRequirements, HA_REQUIREMENTS } from "@/test/harness/system-requirements";
import { haStateDir } from "./state-dir";

// As root on a fresh machine it installs Patroni, etcd, HAProxy and PostgreSQL
// from Debian's packages (as npm test does); as anyone else it names the command.
if (!(await ensureSystemRequirements(console.error, { requirements: HA_REQUIREMENTS, caller: "npm run ha:up" }))) process.exit(1);
const dir = haStateDir();
const cluster = await startHaCluster(dir, (line) => console.error(line)).catch((error: unknown) => {
  console.error(`ha:up: ${error instanceof Error ? error.message : String(error)} (logs were in ${dir})`);
  process.exit(1);
});
console.error(await cluster.patronictlList());
console.error(`state, logs and data in ${dir}; replicas (read-only) at ${cluster.state.replicaUrl}`);
console.error("next: DATABASE_URL=… npm run db:migrate; npm run ha:down stops it and deletes the directory");
console.log(`DATABASE_URL=${cluster.url}`);
