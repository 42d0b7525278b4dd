import { z } from "zod";
import { pathBeyondDepth } from "./json-depth";

// SPEC D3: what a node reports. The known sections are validated field by
// field (a listed field must have its listed type; none is required, since
// not every machine has every fact); fields not listed, and sections not
// known, are kept as given: a newer daemon may send more. This is the one
// place where the rule against unknown fields does not apply.
// One definition, used by inventory/report and by the reference pages.

export const SECTION_NAME_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;
export const MAX_SECTIONS = 64;
/** SPEC G5: how deep JSON may nest inside `sections` (a section's own members are level 1). */
export const MAX_NESTING_LEVELS = 32;
/** inventory/report alone may send this much (other methods: 64 KiB) */
export const INVENTORY_REPORT_MAX_BYTES = 256 * 1024;

const text = z.string().max(1024);
const count = z.number().int().min(0);
const bytes = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** Every listed field optional, each of its type; fields not listed kept. */
const loose = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape).partial();

export const knownSections = {
  system: loose({ vendor: text, product: text, serialNumber: text, systemUuid: text, biosVersion: text }),
  cpu: loose({ model: text, sockets: count, cores: count, threads: count }),
  memory: loose({ totalBytes: bytes }),
  gpus: z.array(loose({ index: count, vendor: text, model: text, uuid: text, memoryBytes: bytes, driverVersion: text })).max(256),
  disks: z.array(loose({ name: text, model: text, serialNumber: text, sizeBytes: bytes, kind: z.enum(["nvme", "ssd", "hdd"]) })).max(1024),
  network: z.array(loose({ name: text, mac: text, speedMbps: count })).max(1024),
  os: loose({ name: text, version: text, kernel: text, arch: text }),
  software: z.array(loose({ name: text, version: text })).max(10_000),
} as const;
export type KnownSectionName = keyof typeof knownSections;

/** Any other section: a JSON object or array, kept as given. */
const otherSection = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())], {
  error: "must be a JSON object or array",
});

export const inventorySections = z
  .object(
    Object.fromEntries(Object.entries(knownSections).map(([name, schema]) => [name, schema.optional()])) as {
      [K in KnownSectionName]: z.ZodOptional<(typeof knownSections)[K]>;
    },
  )
  .catchall(otherSection)
  .superRefine((sections, context) => {
    const names = Object.keys(sections);
    if (names.length > MAX_SECTIONS) context.addIssue({ code: "custom", message: `at most ${MAX_SECTIONS} sections, not ${names.length}` });
    for (const name of names) {
      if (!SECTION_NAME_PATTERN.test(name)) {
        context.addIssue({ code: "custom", path: [name], message: `section names match ${SECTION_NAME_PATTERN.source}` });
      }
    }
  });
export type InventorySections = Record<string, unknown>;

/**
 * The nesting bound is checked before the sections' schema, and so before
 * zod, canonicalisation or storage recurse into them: a few KiB of `[[[[…`
 * would overflow their stacks (a 500). A too-deep value names its path.
 */
const boundedSections = z.preprocess((sections, context) => {
  const path = pathBeyondDepth(sections, MAX_NESTING_LEVELS);
  if (path) context.addIssue({ code: "custom", path, message: `is nested deeper than ${MAX_NESTING_LEVELS} levels` });
  return sections;
}, inventorySections);

export const inventoryReportInput = z.strictObject({ sections: boundedSections });
