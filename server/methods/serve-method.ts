import "server-only";
import type { z } from "zod";
import { ApiError } from "../api/errors";
import { readJsonBody } from "../api/read-json-body";
import { errorResponse, jsonResponse, newRequestId } from "../api/responses";
import { withMethodSecurityHeaders } from "../api/method-security-headers";
import { authenticate, authenticateForPool } from "../auth/authenticate";
import { authorize, authorizeTenantWide } from "../auth/authorize";
import { assertSameOriginMutation } from "../auth/console-origin";
import { getDb, type Db } from "../db/client";
import { findPool, poolOrNotFound } from "../places/find-pool";
import { parseInput } from "@/lib/validations/parse-input";
import {
  MethodResult,
  type CallerMethodDefinition,
  type MachineMethodDefinition,
  type MethodDefinition,
  type NodeMethodDefinition,
  type PoolMethodDefinition,
  type SiteMethodDefinition,
  type TenantMethodDefinition,
} from "./define-method";
import { findNodeForPrincipal } from "../nodes/find-node-for-principal";
import { methodPath } from "@/lib/api/method-path";
import { findSite, findTenant } from "../places/find-site";
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
  return withMethodSecurityHeaders(request, response);
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
    case "caller":
      return serveCallerMethod(method, db, request, now, requestId);
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
  // The body first, so that a service key and the pool it names come in one
  // round trip; its errors still answer after authentication's.
  const parsed = await readInput(method, request);
  const { principal, pool: found } = await authenticateForPool(db, request, parsed.ok ? parsed.value : undefined);
  if (principal.kind === "user" && method.kind === "mutation") assertSameOriginMutation(request);
  const input = inputOrThrow(parsed);
  authorize(principal, method.permission, input.tenantId, input.poolId);
  const pool = found === undefined ? await findPool(db, input.tenantId, input.poolId) : poolOrNotFound(found, input);
  return method.handler({ input, principal, pool, db, now, requestId });
}

async function serveNodeMethod(method: NodeMethodDefinition, db: Db, request: Request, now: Date, requestId: string) {
  const principal = await authenticatePrincipal(db, request, method.kind);
  const input = await parseBody(method, request);
  const node = await findNodeForPrincipal(db, principal, method.permission, input.tenantId, input.nodeId);
  return method.handler({ input, principal, node, db, now, requestId });
}

async function serveCallerMethod(method: CallerMethodDefinition, db: Db, request: Request, now: Date, requestId: string) {
  const principal = await authenticatePrincipal(db, request, method.kind);
  const input = await parseBody(method, request);
  return method.handler({ input, principal, db, now, requestId });
}

async function serveMachineMethod(method: MachineMethodDefinition, db: Db, request: Request, now: Date, requestId: string) {
  const credential = await method.authenticate(db, request, now, methodPath(method.name));
  tagMethodResource(credential);
  const input = await parseBody(method, request);
  return method.handler({ input, credential, db, now, requestId });
}

async function parseBody<S extends z.ZodType>(method: { input: S; maxBodyBytes?: number }, request: Request): Promise<z.output<S>> {
  return inputOrThrow(await readInput(method, request));
}

type ReadInput<T> = { ok: true; value: T } | { ok: false; error: ApiError };

/** The body read and validated, or the error to answer with (not thrown, so a caller can authenticate first). */
async function readInput<S extends z.ZodType>(
  method: { input: S; maxBodyBytes?: number },
  request: Request,
): Promise<ReadInput<z.output<S>>> {
  let body: Record<string, unknown>;
  try {
    body = await readJsonBody(request, method.maxBodyBytes);
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error };
    throw error;
  }
  const parsed = parseInput(method.input, body);
  if (parsed.ok) return parsed;
  const [first] = parsed.violations;
  return { ok: false, error: new ApiError("INVALID_ARGUMENT", `${first!.field} ${first!.message}`, parsed.violations) };
}

function inputOrThrow<T>(parsed: ReadInput<T>): T {
  if (!parsed.ok) throw parsed.error;
  tagMethodResource(parsed.value);
  return parsed.value;
}

/** Every other HTTP method on a method's URL. */
export function methodNotAllowed(request: Request): Response {
  const error = new ApiError("METHOD_NOT_ALLOWED", `${request.method} is not allowed here; use POST`);
  return withMethodSecurityHeaders(request, errorResponse(error, newRequestId(), { allow: "POST" }));
}
