// SPEC G5: how deep a JSON value nests, measured without recursion. Anything
// recursive (zod, RFC 8785 canonicalisation, JSON.stringify) overflows the
// stack on a few KiB of `[[[[…`, so this runs before any of them and needs no
// stack of its own: an explicit list, one entry per object or array.

type Key = string | number;

interface Container {
  value: object;
  level: number;
  key: Key;
  parent: Container | null;
}

/**
 * The path (keys and indices) to the first object or array more than
 * `maxLevels` below `value` (its own members are level 1), or null when none is.
 */
export function pathBeyondDepth(value: unknown, maxLevels: number): Key[] | null {
  if (value === null || typeof value !== "object") return null;
  const pending: Container[] = [{ value, level: 0, key: "", parent: null }];
  for (let container = pending.pop(); container; container = pending.pop()) {
    if (container.level > maxLevels) return pathOf(container);
    const members: [Key, unknown][] = Array.isArray(container.value)
      ? container.value.map((member, index) => [index, member])
      : Object.entries(container.value);
    for (const [key, member] of members) {
      if (member !== null && typeof member === "object") {
        pending.push({ value: member, level: container.level + 1, key, parent: container });
      }
    }
  }
  return null;
}

function pathOf(container: Container): Key[] {
  const path: Key[] = [];
  for (let at: Container | null = container; at?.parent; at = at.parent) path.push(at.key);
  return path.reverse();
}
