import "server-only";
import type { z } from "zod";
import { ApiError } from "../api/errors";
import { readJsonBody } from "../api/read-json-body";
import { errorResponse, jsonResponse, newRequestId } from "../api/responses";
import { authenticate } from "../auth/authenticate";
import { authorize, authorizeTenantWide } from "../auth/authorize";
import { assertSameOriginMutation } from "../auth/console-origin";
import { getDb, type Db } from "../db/client";
import { findPool } from "../pools/find-pool";
import { parseInput } from "@/lib/validations/parse-input";
import {
  MethodResult,
  type MachineMethodDefinition,
  type MethodDefinition,
  type NodeMethodDefinition,
  type PoolMethodDefinition,
  type SiteMethodDefinition,
  type TenantMethodDefinition,
} from "./define-method";
import { findNodeForPrincipal } from "../nodes/find-node-for-principal";
import { methodPath } from "@/lib/api/method-path";
import { findSite, findTenant } from "../pools/find-site";
import { findMethod } from "./registry";
import { observeMethodCall } from "../metrics/observe";
import { tagMethodResource, traceMethodCall } from "../tracing/method-span";

/**
 * Serves POST /api/compute/<name> for a registered method, with the checks
 * in the published order (SPEC B2): authenticate → parse and validate →
 * authorize on the method's resource (compute-pool/{poolId}, a site, the
 * tenant, or compute-node/{nodeId} per D1) → the resource exists under the
 * tenant → the method (request visibility, then state). The only try/catch.
 */
export async function serveMethod(request: Request, name: string): Promise<Response> {
  // A name the registry lacks is "unknown" in metrics and traces alike: no label or span name per stray URL.
  const label = findMethod(name) ? name : "unknown";
  const started = performance.now();
  const response = await traceMethodCall(label, () => answerMethod(request, name));
  observeMethodCall(label, response.status, (performance.now() - started) / 1000);
  return response;
}

async function answerMethod(request: Request, name: string): Promise<Response> {
  const requestId = newRequestId();
  try {
    const method = findMethod(name);
    if (!method) throw new ApiError("NOT_FOUND", `no method ${name}`);
    const db = await getDb();
    const now = new Date();
    const result = await serveByAccess(method, db, request, now, requestId);
    if (result instanceof MethodResult) return jsonResponse(result.status, result.body, requestId);
    return jsonResponse(200, result, requestId);
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

function serveByAccess(method: MethodDefinition, db: Db, request: Request, now: Date, requestId: string) {
  switch (method.access) {
    case "pool":
      return servePoolMethod(method, db, request, now, requestId);
    case "site":
      return serveSiteMethod(method, db, request, now, requestId);
    case "tenant":
      return serveTenantMethod(method, db, request, now, requestId);
    case "node":
      return serveNodeMethod(method, db, request, now, requestId);
    case "machine":
      return serveMachineMethod(method, db, request, now, requestId);
  }
}

/** Authenticates a principal; a console session's mutation must come from the console's origin (CSRF). */
async function authenticatePrincipal(db: Db, request: Request, kind: MethodDefinition["kind"]) {
  const principal = await authenticate(db, request);
  if (principal.kind === "user" && kind === "mutation") assertSameOriginMutation(request);
  return principal;
}

async function serveSiteMethod(method: SiteMethodDefinition, db: Db, request: Request, now: Date, requestId: string) {
  const principal = await authenticatePrincipal(db, request, method.kind);
  const input = await parseBody(method, request);
  authorizeTenantWide(principal, method.permission, input.tenantId, `compute-site/${input.siteId}`);
  const site = await findSite(db, input.tenantId, input.siteId);
  return method.handler({ input, principal, site, db, now, requestId });
}

async function serveTenantMethod(method: TenantMethodDefinition, db: Db, request: Request, now: Date, requestId: string) {
  const principal = await authenticatePrincipal(db, request, method.kind);
  const input = await parseBody(method, request);
  authorizeTenantWide(principal, method.permission, input.tenantId, `compute-tenant/${input.tenantId}`);
  await findTenant(db, input.tenantId);
  return method.handler({ input, principal, db, now, requestId });
}

async function servePoolMethod(method: PoolMethodDefinition, db: Db, request: Request, now: Date, requestId: string) {
  const principal = await authenticatePrincipal(db, request, method.kind);
  const input = await parseBody(method, request);
  authorize(principal, method.permission, input.tenantId, input.poolId);
  const pool = await findPool(db, input.tenantId, input.poolId);
  return method.handler({ input, principal, pool, db, now, requestId });
}

async function serveNodeMethod(method: NodeMethodDefinition, db: Db, request: Request, now: Date, requestId: string) {
  const principal = await authenticatePrincipal(db, request, method.kind);
  const input = await parseBody(method, request);
  const node = await findNodeForPrincipal(db, principal, method.permission, input.tenantId, input.nodeId);
  return method.handler({ input, principal, node, db, now, requestId });
}

async function serveMachineMethod(method: MachineMethodDefinition, db: Db, request: Request, now: Date, requestId: string) {
  const credential = await method.authenticate(db, request, now, methodPath(method.name));
  tagMethodResource(credential);
  const input = await parseBody(method, request);
  return method.handler({ input, credential, db, now, requestId });
}

async function parseBody<S extends z.ZodType>(method: { input: S; maxBodyBytes?: number }, request: Request): Promise<z.output<S>> {
  const parsed = parseInput(method.input, await readJsonBody(request, method.maxBodyBytes));
  if (parsed.ok) {
    tagMethodResource(parsed.value);
    return parsed.value;
  }
  const [first] = parsed.violations;
  throw new ApiError("INVALID_ARGUMENT", `${first!.field} ${first!.message}`, parsed.violations);
}

/** Every other HTTP method on a method's URL. */
export function methodNotAllowed(request: Request): Response {
  const error = new ApiError("METHOD_NOT_ALLOWED", `${request.method} is not allowed here; use POST`);
  return errorResponse(error, newRequestId(), { allow: "POST" });
}
