import { z } from "zod";
import { snapshotJson } from "@/lib/inventory/snapshot-json";
import { nextCursor } from "@/lib/wire/fields";

// What the inventory methods answer (SPEC D3); get returns the snapshot itself.
export const reportInventoryResponse = z.strictObject({
  snapshotId: z.string().startsWith("inv_"),
  changed: z.boolean(),
  changedSections: z.array(z.string()),
});
export const listInventoryResponse = z.strictObject({ snapshots: z.array(snapshotJson), nextCursor });
