import type { z } from "zod";

export interface InputViolation {
  field: string;
  message: string;
}

/**
 * Parses a method input and turns zod's issues into field violations that
 * name the field ("ttlSeconds", "types.1", or an unknown field's own name).
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  body: unknown,
): { ok: true; value: z.output<S> } | { ok: false; violations: InputViolation[] } {
  const result = schema.safeParse(body);
  if (result.success) return { ok: true, value: result.data };
  const violations = result.error.issues.flatMap((issue): InputViolation[] => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ field: key, message: "is not a known field" }));
    }
    return [{ field: issue.path.map(String).join(".") || "body", message: issue.message }];
  });
  return { ok: false, violations };
}
