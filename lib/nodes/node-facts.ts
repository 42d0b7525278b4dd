// What the console says about a node at a glance (issue 12): stale when its
// last call is older than 15 minutes, a certificate warning inside 7 days,
// and a one-line hardware summary of its latest inventory.

export const STALE_AFTER_MS = 15 * 60_000;
export const CERTIFICATE_WARNING_MS = 7 * 86_400_000;

export function isStale(lastSeenAt: string | null, now: Date): boolean {
  return lastSeenAt === null || now.getTime() - Date.parse(lastSeenAt) > STALE_AFTER_MS;
}

export function certificateExpiresSoon(notAfter: string, now: Date): boolean {
  return Date.parse(notAfter) - now.getTime() < CERTIFICATE_WARNING_MS;
}

const UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];

/** 2199023255552 → "2 TiB"; 85520809984 → "79.6 GiB". */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = Number.isInteger(value) || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits).replace(/\.0$/, "")} ${UNITS[unit]}`;
}

type Sections = Record<string, unknown>;
const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const list = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.map(record).filter((item) => item !== null) : []);

/** "8 × NVIDIA H100 80GB HBM3 · 2 TiB RAM"; GPUs grouped by model; null when the inventory says neither. */
export function hardwareSummary(sections: Sections | null): string | null {
  if (!sections) return null;
  const byModel = new Map<string, number>();
  for (const gpu of list(sections.gpus)) {
    const model = typeof gpu.model === "string" ? gpu.model : "GPU";
    byModel.set(model, (byModel.get(model) ?? 0) + 1);
  }
  const parts = [...byModel].map(([model, count]) => `${count} × ${model}`);
  const totalBytes = record(sections.memory)?.totalBytes;
  if (typeof totalBytes === "number") parts.push(`${formatBytes(totalBytes)} RAM`);
  return parts.length ? parts.join(" · ") : null;
}

/** "Ubuntu 22.04.4 LTS" from the os section; null without one. */
export function osSummary(sections: Sections | null): string | null {
  const os = record(sections?.os);
  if (!os) return null;
  const text = [os.name, os.version].filter((part) => typeof part === "string").join(" ");
  return text || null;
}
