import type { z } from "zod";
import { parseInput } from "@/lib/validations/parse-input";

/**
 * An administrative change that cannot be made as asked: a bad id, a
 * conflicting re-create, a subject that does not exist. Its message is one
 * line for the operator, naming the field or the thing at fault.
 */
export class AdminError extends Error {
  override name = "AdminError";
}

/** Parses an administrative input with its zod schema; the first violation, naming its field, is the error. */
export function parseAdminInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = parseInput(schema, input);
  if (result.ok) return result.value;
  throw new AdminError(result.violations.map((violation) => `${violation.field}: ${violation.message}`).join("; "));
}

/** How a create or a change ended: made now, already so (nothing changed). */
export type AdminOutcome = "created" | "changed" | "unchanged";
