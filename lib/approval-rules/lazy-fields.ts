/** How each field of a lazily read map is made from its subject; written once, shared by every subject. */
export type FieldMakers<S> = Readonly<Record<string, (subject: S) => unknown>>;

/**
 * A CEL map (a JS Map, which @bufbuild/cel reads key by key) whose values are
 * made from a subject when the expression reads them. A rule reads two or
 * three of a request's twenty fields, and approvalRules/test evaluates it on
 * up to 10,000 requests: making every timestamp and list of each of them cost
 * more than the evaluation itself. The makers are shared (no closures, no
 * entries per subject); a field read twice is made twice, which is cheaper
 * than remembering it.
 */
export class LazyFields<S> extends Map<string, unknown> {
  constructor(
    private readonly subject: S,
    private readonly makers: FieldMakers<S>,
    private readonly names: readonly string[] = Object.keys(makers),
  ) {
    super();
  }

  override get size(): number {
    return this.names.length;
  }

  override has(key: string): boolean {
    return Object.hasOwn(this.makers, key);
  }

  override get(key: string): unknown {
    return Object.hasOwn(this.makers, key) ? this.makers[key]!(this.subject) : undefined;
  }

  override keys(): MapIterator<string> {
    return this.names[Symbol.iterator]() as MapIterator<string>;
  }

  override *entries(): MapIterator<[string, unknown]> {
    for (const key of this.names) yield [key, this.get(key)];
  }

  override *values(): MapIterator<unknown> {
    for (const key of this.names) yield this.get(key);
  }

  override forEach(callback: (value: unknown, key: string, map: Map<string, unknown>) => void, thisArg?: unknown): void {
    for (const key of this.names) callback.call(thisArg, this.get(key), key, this);
  }

  override [Symbol.iterator](): MapIterator<[string, unknown]> {
    return this.entries();
  }
}
