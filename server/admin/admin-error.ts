import type { z } from "zod";
import { ApiError, type ErrorCode } from "../api/errors";
import { parseInput } from "@/lib/validations/parse-input";

/**
 * An administrative change that cannot be made as asked: a bad id
 * (INVALID_ARGUMENT), something that does not exist (NOT_FOUND), a
 * conflicting re-create (INVALID_STATE). The project's one error type, so a
 * published method answers with it as it is; its message is one line for the
 * operator's command line, naming the field or the thing at fault.
 */
export class AdminError extends ApiError {
  constructor(message: string, code: ErrorCode = "INVALID_STATE", details?: ApiError["details"]) {
    super(code, message, details);
    this.name = "AdminError";
  }
}

/** Parses an administrative input with its zod schema; the violations, naming their fields, are the error. */
export function parseAdminInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = parseInput(schema, input);
  if (result.ok) return result.value;
  const message = result.violations.map((violation) => `${violation.field}: ${violation.message}`).join("; ");
  throw new AdminError(message, "INVALID_ARGUMENT", result.violations);
}

/** How a create or a change ended: made now, already so (nothing changed). */
export type AdminOutcome = "created" | "changed" | "unchanged";
