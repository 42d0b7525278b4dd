import dataTable from "@/components/ui/data-table.module.css";
import detail from "@/components/join-requests/request-detail.module.css";
import nodeStyles from "./node.module.css";
import { formatBytes } from "@/lib/nodes/node-facts";

// A snapshot's sections as people read them (issue 12): lists as tables,
// objects as term/value pairs, sizes in binary units; sections we do not
// know (a newer daemon's) as formatted JSON.

type Row = Record<string, unknown>;

const TABLES: Record<string, { title: string; columns: [key: string, label: string][] }> = {
  gpus: {
    title: "GPUs",
    columns: [
      ["index", "#"],
      ["model", "Model"],
      ["memoryBytes", "Memory"],
      ["driverVersion", "Driver"],
      ["uuid", "UUID"],
    ],
  },
  disks: {
    title: "Disks",
    columns: [
      ["name", "Name"],
      ["kind", "Kind"],
      ["sizeBytes", "Size"],
      ["model", "Model"],
      ["serialNumber", "Serial"],
    ],
  },
  network: {
    title: "Network",
    columns: [
      ["name", "Interface"],
      ["mac", "MAC"],
      ["speedMbps", "Speed"],
    ],
  },
  software: {
    title: "Software",
    columns: [
      ["name", "Package"],
      ["version", "Version"],
    ],
  },
};
const RECORDS: Record<string, string> = { system: "System", cpu: "CPU", memory: "Memory", os: "Operating system" };
const ORDER = ["system", "cpu", "memory", "gpus", "disks", "network", "os", "software"];

function cell(key: string, value: unknown): string {
  if (value === undefined || value === null) return "—";
  if (typeof value === "number" && /Bytes$/.test(key)) return formatBytes(value);
  if (typeof value === "number" && key === "speedMbps") return value >= 1000 ? `${value / 1000} Gb/s` : `${value} Mb/s`;
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

const isRows = (value: unknown): value is Row[] =>
  Array.isArray(value) && value.every((item) => item && typeof item === "object" && !Array.isArray(item));

function SectionTable({ name, rows }: { name: string; rows: Row[] }) {
  const known = TABLES[name]!;
  const extra = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((key) => !known.columns.some(([column]) => column === key));
  const columns = [...known.columns, ...extra.map((key) => [key, key] as [string, string])];
  return (
    <div className={dataTable.tableWrap}>
      <table className={dataTable.table} data-testid={`section-${name}`}>
        <caption className="visually-hidden">{known.title}</caption>
        <thead>
          <tr>
            {columns.map(([key, label]) => (
              <th key={key} scope="col">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index}>
              {columns.map(([key]) => (
                <td key={key} className={key === "uuid" || key === "mac" ? "mono" : undefined}>
                  {cell(key, row[key])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SectionRecord({ name, record }: { name: string; record: Row }) {
  return (
    <dl className={detail.fields} data-testid={`section-${name}`}>
      {Object.entries(record).map(([key, value]) => [<dt key={`${key}-term`}>{key}</dt>, <dd key={key}>{cell(key, value)}</dd>])}
    </dl>
  );
}

export function InventorySections({ sections }: { sections: Record<string, unknown> }) {
  const names = [
    ...ORDER.filter((name) => name in sections),
    ...Object.keys(sections)
      .filter((name) => !ORDER.includes(name))
      .sort(),
  ];
  return (
    <div className={nodeStyles.sections}>
      {names.map((name) => {
        const value = sections[name];
        const title = TABLES[name]?.title ?? RECORDS[name] ?? name;
        let body: React.ReactNode;
        if (TABLES[name] && isRows(value)) body = <SectionTable name={name} rows={value} />;
        else if (RECORDS[name] && value && typeof value === "object" && !Array.isArray(value))
          body = <SectionRecord name={name} record={value as Row} />;
        else
          body = (
            <pre className={nodeStyles.json} data-testid={`section-${name}`}>
              {JSON.stringify(value, null, 2)}
            </pre>
          );
        return (
          <section key={name} aria-labelledby={`section-title-${name}`}>
            <h3 id={`section-title-${name}`}>
              {title}
              {TABLES[name] && Array.isArray(value) ? <span className="muted"> ({value.length})</span> : null}
            </h3>
            {body}
          </section>
        );
      })}
    </div>
  );
}
