import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Where `ha:up` keeps the cluster (data, configuration, logs, pids) and
 * `ha:down` finds it: $BC_HA_DIR, else one fixed directory under the system's
 * temporary directory (the postgres user must be able to reach it, which a
 * checkout in a home directory may not allow).
 */
export function haStateDir(env: Record<string, string | undefined> = process.env): string {
  return env.BC_HA_DIR?.trim() || join(tmpdir(), "bc-ha");
}
