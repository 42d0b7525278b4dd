// The one error type of the API (SPEC B3); the envelope and code → HTTP table live in lib/ (wire shapes).
// Domain functions throw ApiError; only the method wrapper turns it into a Response.

import { HTTP_STATUS_BY_CODE, type ErrorBody, type ErrorCode, type FieldViolation } from "@/lib/api/error-envelope";

export { HTTP_STATUS_BY_CODE, type ErrorBody, type ErrorCode, type FieldViolation };

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldViolation[],
    /** sent as Retry-After: when trying again may succeed (429, 503) */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "ApiError";
  }

  get httpStatus(): number {
    return HTTP_STATUS_BY_CODE[this.code];
  }

  toBody(): ErrorBody {
    const error: ErrorBody["error"] = { code: this.code, message: this.message };
    if (this.details?.length) error.details = this.details;
    return { error };
  }
}
