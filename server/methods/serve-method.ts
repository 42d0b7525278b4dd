import "server-only";
import { ApiError } from "../api/errors";
import { readJsonBody } from "../api/read-json-body";
import { errorResponse, jsonResponse, newRequestId } from "../api/responses";
import { authenticate } from "../auth/authenticate";
import { authorize } from "../auth/authorize";
import { getDb } from "../db/client";
import { findPool } from "../pools/find-pool";
import { parseInput } from "@/lib/validations/parse-input";
import { findMethod } from "./registry";

/**
 * Serves POST /api/compute/<name> for a registered method, with the checks
 * in the published order (SPEC B2): authenticate → parse and validate →
 * authorize on compute-pool/{poolId} → the pool exists under the tenant →
 * the method (request visibility, then state). The only try/catch.
 */
export async function serveMethod(request: Request, name: string): Promise<Response> {
  const requestId = newRequestId();
  try {
    const method = findMethod(name);
    if (!method) throw new ApiError("NOT_FOUND", `no method ${name}`);
    const db = await getDb();
    const principal = await authenticate(db, request);
    const parsed = parseInput(method.input, await readJsonBody(request));
    if (!parsed.ok) {
      const [first] = parsed.violations;
      throw new ApiError("INVALID_ARGUMENT", `${first!.field} ${first!.message}`, parsed.violations);
    }
    const input = parsed.value;
    authorize(principal, method.permission, input.tenantId, input.poolId);
    const pool = await findPool(db, input.tenantId, input.poolId);
    const result = await method.handler({ input, principal, pool, db, now: new Date(), requestId });
    return jsonResponse(200, result, requestId);
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

/** Every other HTTP method on a method's URL. */
export function methodNotAllowed(request: Request): Response {
  const error = new ApiError("METHOD_NOT_ALLOWED", `${request.method} is not allowed here; use POST`);
  return errorResponse(error, newRequestId(), { allow: "POST" });
}
