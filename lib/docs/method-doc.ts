// One published method as the API reference pages print it (SPEC Part A).

/** A row of a method's input table: Field | Type | Required | Constraints. */
export interface FieldRow {
  field: string;
  type: string;
  required: string;
  constraints: string;
}

export interface MethodDocView {
  name: string;
  method: string;
  path: string;
  kind: "read" | "mutation" | "machine";
  module: string;
  phase: string;
  status: string;
  summary: string;
  /** "Decided as `compute:join-tokens:read`." (for a machine method: the credentials it takes) */
  decided: string;
  description?: string;
  /** "Publishes `security.join-request.approved` with the new `expiresAt`.", when it publishes any */
  published?: string;
  fields: FieldRow[];
}
