// A snapshot as inventory/get and inventory/list return it (SPEC D3).
export interface SnapshotJson {
  id: string;
  nodeId: string;
  takenAt: string;
  lastReportedAt: string;
  sectionsSha256: string;
  changedSections: string[];
  sections: Record<string, unknown>;
}

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
