import "server-only";
import type { z } from "zod";
import { ApiError } from "../api/errors";
import { readJsonBody } from "../api/read-json-body";
import { errorResponse, jsonResponse, newRequestId } from "../api/responses";
import { authenticate } from "../auth/authenticate";
import { authorize } from "../auth/authorize";
import { assertSameOriginMutation } from "../auth/console-origin";
import { getDb, type Db } from "../db/client";
import { findPool } from "../pools/find-pool";
import { parseInput } from "@/lib/validations/parse-input";
import { MethodResult, type MachineMethodDefinition, type PoolMethodDefinition } from "./define-method";
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
    const now = new Date();
    const result =
      method.access === "pool"
        ? await servePoolMethod(method, db, request, now, requestId)
        : await serveMachineMethod(method, db, request, now, requestId);
    if (result instanceof MethodResult) return jsonResponse(result.status, result.body, requestId);
    return jsonResponse(200, result, requestId);
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

async function servePoolMethod(method: PoolMethodDefinition, db: Db, request: Request, now: Date, requestId: string) {
  const principal = await authenticate(db, request);
  // CSRF: a console session's mutation must come from the console's origin.
  if (principal.kind === "user" && method.kind === "mutation") assertSameOriginMutation(request);
  const input = await parseBody(method.input, request);
  authorize(principal, method.permission, input.tenantId, input.poolId);
  const pool = await findPool(db, input.tenantId, input.poolId);
  return method.handler({ input, principal, pool, db, now, requestId });
}

async function serveMachineMethod(method: MachineMethodDefinition, db: Db, request: Request, now: Date, requestId: string) {
  const credential = await method.authenticate(db, request, now);
  const input = await parseBody(method.input, request);
  return method.handler({ input, credential, db, now, requestId });
}

async function parseBody<S extends z.ZodType>(schema: S, request: Request): Promise<z.output<S>> {
  const parsed = parseInput(schema, await readJsonBody(request));
  if (parsed.ok) return parsed.value;
  const [first] = parsed.violations;
  throw new ApiError("INVALID_ARGUMENT", `${first!.field} ${first!.message}`, parsed.violations);
}

/** Every other HTTP method on a method's URL. */
export function methodNotAllowed(request: Request): Response {
  const error = new ApiError("METHOD_NOT_ALLOWED", `${request.method} is not allowed here; use POST`);
  return errorResponse(error, newRequestId(), { allow: "POST" });
}
