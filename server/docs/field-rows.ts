// An input schema's fields as the reference's table shows them (SPEC Part A):
// Field | Type | Required | Constraints, read from the schema's JSON Schema.

import type { FieldRow } from "@/lib/docs/method-doc";

interface JsonSchema {
  type?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  default?: unknown;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

/** The schema without its `null` alternative (an optional field may be null, SPEC B2). */
function nonNull(schema: JsonSchema): JsonSchema {
  const alternatives = schema.anyOf?.filter((alternative) => alternative.type !== "null");
  if (alternatives?.length === 1) return { ...alternatives[0], default: schema.default };
  return schema;
}

const code = (value: unknown) => `\`${typeof value === "string" ? value : JSON.stringify(value)}\``;

function typeOf(schema: JsonSchema): string {
  if (schema.enum) return `one of ${schema.enum.map(code).join(", ")}`;
  if (schema.type === "array") return `array of ${schema.items ? typeOf(nonNull(schema.items)) : "values"}`;
  return schema.type ?? "any";
}

function constraintsOf(schema: JsonSchema): string[] {
  const parts: string[] = [];
  if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`);
  if (schema.pattern !== undefined) parts.push(`matches ${code(schema.pattern)}`);
  if (schema.minimum !== undefined && schema.maximum !== undefined) parts.push(`${schema.minimum}-${schema.maximum}`);
  if (schema.minItems !== undefined || schema.maxItems !== undefined)
    parts.push(`${schema.minItems ?? 0}-${schema.maxItems ?? "any"} items`);
  if (schema.items) parts.push(...constraintsOf(nonNull(schema.items)).map((part) => `each ${part}`));
  return parts;
}

export function fieldRows(input: JsonSchema): FieldRow[] {
  const required = new Set(input.required ?? []);
  return Object.entries(input.properties ?? {}).map(([field, raw]) => {
    const schema = nonNull(raw);
    const constraints = constraintsOf(schema);
    const hasDefault = raw.default !== undefined;
    // an enum's default stands in the Required column, a number's among its constraints (as Part A prints them)
    if (hasDefault && !schema.enum)
      constraints.push(`default ${typeof raw.default === "string" ? code(raw.default) : String(raw.default)}`);
    return {
      field,
      type: typeOf(schema),
      required: required.has(field) ? "yes" : hasDefault && schema.enum ? `default ${JSON.stringify(raw.default)}` : "",
      constraints: constraints.join("; "),
    };
  });
}
