import type { ErrorCode, FieldViolation } from "@/lib/api/error-envelope";

/** A published method's error envelope (SPEC B3), as a typed error; NETWORK when no answer came. */
export class ApiClientError extends Error {
  constructor(
    readonly code: ErrorCode | "NETWORK",
    message: string,
    readonly status: number,
    readonly details: FieldViolation[] = [],
    readonly requestId: string | null = null,
  ) {
    super(message);
    this.name = "ApiClientError";
  }
}

export const isApiClientError = (error: unknown): error is ApiClientError => error instanceof ApiClientError;
