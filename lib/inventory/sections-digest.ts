import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

// SPEC D3: two reports are the same snapshot when their sections,
// canonicalised by RFC 8785 (JSON Canonicalization Scheme: sorted keys, one
// spelling per number and string), hash the same. Key order and whitespace
// never make a new snapshot.

function canonical(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("inventory sections must be JSON");
  return text;
}

/** SHA-256 (hex) of the sections' RFC 8785 canonical form. */
export function sectionsSha256(sections: Record<string, unknown>): string {
  return createHash("sha256").update(canonical(sections), "utf8").digest("hex");
}

/** The section names added, removed or changed from `previous` to `next`, sorted; every name when there is no previous. */
export function changedSections(previous: Record<string, unknown> | null, next: Record<string, unknown>): string[] {
  if (!previous) return Object.keys(next).sort();
  const names = new Set([...Object.keys(previous), ...Object.keys(next)]);
  return [...names].filter((name) => !(name in previous) || !(name in next) || canonical(previous[name]) !== canonical(next[name])).sort();
}
