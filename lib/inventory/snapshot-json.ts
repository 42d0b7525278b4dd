import { z } from "zod";
import { sha256Hex, timestamp } from "@/lib/wire/fields";

// A snapshot as inventory/get and inventory/list return it (SPEC D3).
export const snapshotJson = z.strictObject({
  id: z.string().startsWith("inv_"),
  nodeId: z.string().startsWith("node_"),
  takenAt: timestamp.meta({ description: "its first report" }),
  lastReportedAt: timestamp,
  sectionsSha256: sha256Hex,
  changedSections: z
    .array(z.string())
    .meta({ description: "added, removed or changed against the previous snapshot; all names for the first" }),
  sections: z.record(z.string(), z.unknown()),
});
export type SnapshotJson = z.infer<typeof snapshotJson>;

export function toSnapshotJson(row: {
  id: string;
  nodeId: string;
  takenAt: Date;
  lastReportedAt: Date;
  sectionsSha256: string;
  changedSections: string[];
  sections: unknown;
}): SnapshotJson {
  return {
    id: row.id,
    nodeId: row.nodeId,
    takenAt: row.takenAt.toISOString(),
    lastReportedAt: row.lastReportedAt.toISOString(),
    sectionsSha256: row.sectionsSha256,
    changedSections: row.changedSections,
    sections: row.sections as Record<string, unknown>,
  };
}
