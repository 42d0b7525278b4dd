import { parse as parseCsv } from "csv-parse/sync";
import { discoveredMachineInput, type DiscoveredMachineInput } from "@/lib/validations/attestation";
import { parseInput } from "@/lib/validations/parse-input";

// A vendor's manifest of machines for a site's discovery inventory (SPEC E1):
// CSV with a header row `systemUuid,macAddresses,assignedPool` (MACs separated
// by spaces or semicolons; assignedPool optional), or JSON: an array of
// { systemUuid, macAddresses: [...], assignedPool? }. Every bad line is
// reported with its line number; one bad line and nothing is imported.

export type ManifestResult = { ok: true; machines: DiscoveredMachineInput[] } | { ok: false; errors: string[] };

interface Entry {
  where: string;
  raw: { systemUuid?: unknown; macAddresses?: unknown; assignedPool?: unknown };
}

export function parseMachineManifest(text: string, fileName: string): ManifestResult {
  const json = fileName.endsWith(".json") || /^\s*[[{]/.test(text);
  let entries: Entry[];
  try {
    entries = json ? jsonEntries(text) : csvEntries(text);
  } catch (error) {
    return { ok: false, errors: [`${fileName}: ${error instanceof Error ? error.message : String(error)}`] };
  }
  if (entries.length === 0) return { ok: false, errors: [`${fileName}: no machines in it`] };

  const errors: string[] = [];
  const machines: DiscoveredMachineInput[] = [];
  const seen = new Map<string, string>();
  for (const { where, raw } of entries) {
    const { assignedPool, ...rest } = raw;
    const parsed = parseInput(discoveredMachineInput, { ...rest, assignedPoolId: assignedPool === "" ? null : (assignedPool ?? null) });
    if (!parsed.ok) {
      errors.push(
        `${where}: ${parsed.violations.map((violation) => `${violation.field === "assignedPoolId" ? "assignedPool" : violation.field}: ${violation.message}`).join("; ")}`,
      );
      continue;
    }
    const earlier = seen.get(parsed.value.systemUuid);
    if (earlier) errors.push(`${where}: systemUuid ${parsed.value.systemUuid} is already on ${earlier}`);
    seen.set(parsed.value.systemUuid, where);
    machines.push(parsed.value);
  }
  return errors.length ? { ok: false, errors } : { ok: true, machines };
}

function csvEntries(text: string): Entry[] {
  const records = parseCsv(text, { columns: true, skip_empty_lines: true, trim: true, info: true, relax_column_count: false }) as {
    record: Record<string, string>;
    info: { lines: number };
  }[];
  return records.map(({ record, info }) => {
    const unknown = Object.keys(record).filter((column) => !["systemUuid", "macAddresses", "assignedPool"].includes(column));
    if (unknown.length) throw new Error(`unknown column ${unknown.join(", ")}; the header is systemUuid,macAddresses,assignedPool`);
    return {
      where: `line ${info.lines}`,
      raw: {
        systemUuid: record.systemUuid,
        macAddresses: (record.macAddresses ?? "").split(/[\s;]+/).filter(Boolean),
        assignedPool: record.assignedPool,
      },
    };
  });
}

function jsonEntries(text: string): Entry[] {
  const document: unknown = JSON.parse(text);
  const list = Array.isArray(document) ? document : (document as { machines?: unknown } | null)?.machines;
  if (!Array.isArray(list)) throw new Error('expected a JSON array of machines (or { "machines": [...] })');
  return list.map((item: unknown, index) => ({
    where: `entry ${index + 1}`,
    raw: typeof item === "object" && item !== null ? (item as Entry["raw"]) : { systemUuid: item },
  }));
}
