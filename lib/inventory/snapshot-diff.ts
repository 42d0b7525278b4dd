import diff from "microdiff";

// A field-level diff of two snapshots' sections (issue 12), by microdiff
// (a maintained library, not ours): what was added, removed or changed, with
// the path as the console shows it ("gpus.7.uuid") and old → new values.

export interface FieldChange {
  kind: "added" | "removed" | "changed";
  /** the section name first, then keys and array indexes */
  path: string;
  before?: unknown;
  after?: unknown;
}

const KIND = { CREATE: "added", REMOVE: "removed", CHANGE: "changed" } as const;

export function diffSections(before: Record<string, unknown>, after: Record<string, unknown>): FieldChange[] {
  return diff(before, after).map((change) => ({
    kind: KIND[change.type],
    path: change.path.join("."),
    ...("oldValue" in change ? { before: change.oldValue } : {}),
    ...("value" in change ? { after: change.value } : {}),
  }));
}
