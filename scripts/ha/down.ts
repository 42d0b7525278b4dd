// `npm run ha:down`: stops what `npm run ha:up` started and deletes its directory.
import { openHaCluster } from "@/test/harness/ha-cluster";
import { haStateDir } from "./state-dir";

const dir = haStateDir();
const cluster = openHaCluster(dir);
if (!cluster) {
  console.error(`ha:down: no HA cluster in ${dir}`);
} else {
  await cluster.stop();
  console.error(`ha:down: stopped, ${dir} deleted`);
}
