import { z } from "zod";

// The error envelope on the wire (SPEC B3): its codes and their HTTP statuses.
// Shared by the server (which answers with it), the browser client (which
// reads it) and the OpenAPI document (which publishes it).

export const HTTP_STATUS_BY_CODE = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  JOIN_REJECTED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  INVALID_STATE: 409,
  PAYLOAD_TOO_LARGE: 413,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof HTTP_STATUS_BY_CODE;

const ERROR_CODES = Object.keys(HTTP_STATUS_BY_CODE) as [ErrorCode, ...ErrorCode[]];

export const fieldViolation = z.strictObject({ field: z.string(), message: z.string() });
export type FieldViolation = z.infer<typeof fieldViolation>;

export const errorBody = z
  .strictObject({
    error: z.strictObject({ code: z.enum(ERROR_CODES), message: z.string(), details: z.array(fieldViolation).optional() }),
  })
  .meta({ description: "SPEC B3: every error; every response also carries `x-request-id`." });
export type ErrorBody = z.infer<typeof errorBody>;
