import "server-only";
import { AdminError, type AdminOutcome } from "./admin-error";

/**
 * The create of an operator's thing with a chosen id, safe against a
 * concurrent create of the same id: insert unless it exists (ON CONFLICT DO
 * NOTHING), and when it existed, compare. The same → "unchanged"; anything
 * else → a conflict naming what differs.
 */
export async function insertOrCompare<Row>(steps: {
  describe: string;
  insert: () => Promise<number>;
  read: () => Promise<Row | null>;
  differences: (existing: Row) => string[] | Promise<string[]>;
}): Promise<{ outcome: AdminOutcome; row: Row }> {
  const inserted = await steps.insert();
  const row = await steps.read();
  if (!row) throw new Error(`${steps.describe} vanished while being created`);
  if (inserted > 0) return { outcome: "created", row };
  const differences = await steps.differences(row);
  if (differences.length > 0) throw new AdminError(`${steps.describe} exists with ${differences.join(", ")}; nothing changed`);
  return { outcome: "unchanged", row };
}
