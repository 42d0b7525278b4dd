import "server-only";
import type { z } from "zod";
import type { Db } from "../db/client";
import type { Principal } from "../auth/principal";
import type { Permission } from "../auth/roles";
import type { PoolFacts } from "../places/find-pool";
import type { NodeJsonRow } from "../nodes/node-rows";

/**
 * What a method answers on success, by HTTP status: the wire shapes declared in
 * lib/ (the OpenAPI document publishes them, the API tests check real answers
 * against them). 202 only where a handler answers it (a deferred join).
 */
export interface SuccessResponses {
  200: z.ZodType;
  202?: z.ZodType;
}

/** What a handler may return: a 200 body the declared schema accepts (checked at compile time). */
type SuccessBody<Responses extends SuccessResponses> = z.input<Responses[200]>;

/**
 * An event and what it carries, in the reference's words after the type, punctuation
 * included: `{ type: "security.join-request.approved", carries: " with the new \`expiresAt\`" }`
 * reads "Publishes `security.join-request.approved` with the new `expiresAt`."
 */
export interface PublishedEvent {
  type: string;
  carries: string;
}

interface MethodFacts<Schema extends z.ZodType, Responses extends SuccessResponses> {
  /** `<group>/<method>`, served at POST /api/compute/<group>/<method> */
  name: string;
  kind: "read" | "mutation";
  phase: string;
  status: "registered";
  module: "server";
  /** the reference's first sentence: what the method does */
  summary: string;
  /** the rest of the reference text: how it decides, its edge cases */
  description?: string;
  /** the events it publishes: a type, or a type with what it carries as the reference says it */
  publishes?: readonly (string | PublishedEvent)[];
  input: Schema;
  responses: Responses;
  /** the largest body this method takes; 64 KiB unless it says more (SPEC B2) */
  maxBodyBytes?: number;
}

/** What a pool method's handler gets once the caller is authenticated, authorized and the pool found. */
export interface PoolMethodContext<Input> {
  input: Input;
  principal: Principal;
  pool: PoolFacts;
  db: Db;
  now: Date;
  requestId: string;
}

type PoolScopedInput = { tenantId: string; poolId: string };

/**
 * A method called by users and services (service key or console session),
 * decided on compute-pool/{poolId} within tenantId.
 */
export interface PoolMethodDefinition<
  Schema extends z.ZodType<PoolScopedInput, unknown> = z.ZodType<PoolScopedInput, unknown>,
  Responses extends SuccessResponses = SuccessResponses,
> extends MethodFacts<Schema, Responses> {
  access: "pool";
  permission: Permission;
  resource: "compute-pool";
  // A method signature (not a property) so that definitions of different
  // inputs fit one registry list.
  handler(context: PoolMethodContext<z.output<Schema>>): Promise<SuccessBody<Responses>>;
}

/** What a machine method's handler gets: the authenticated machine credential. */
export interface MachineMethodContext<Input, Credential> {
  input: Input;
  credential: Credential;
  db: Db;
  now: Date;
  requestId: string;
}

/**
 * A method called by machines (the node daemon) with a machine credential
 * rather than a principal; `authenticate` answers 401 itself.
 */
/** How a machine proves who it is (the reference pages and OpenAPI's security schemes name them). */
export type MachineCredentialKind = "joinToken" | "enrollmentKey" | "nodeJwt";

export interface MachineMethodDefinition<
  Schema extends z.ZodType = z.ZodType,
  Credential = unknown,
  Responses extends SuccessResponses = SuccessResponses,
> extends MethodFacts<Schema, Responses> {
  access: "machine";
  /** the credentials `authenticate` accepts */
  credentials: readonly MachineCredentialKind[];
  /** `path` is the method's own (a node JWT's audience, SPEC D2) */
  authenticate(db: Db, request: Request, now: Date, path: string): Promise<Credential>;
  handler(context: MachineMethodContext<z.output<Schema>, Credential>): Promise<MethodResult | SuccessBody<Responses>>;
}

/** A handler may choose its HTTP status (e.g. 202 for a deferred join); 200 otherwise. */
export class MethodResult {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** What a site method's handler gets once the caller is authorized and the site found. */
export interface SiteMethodContext<Input> {
  input: Input;
  principal: Principal;
  site: { id: string; tenantId: string };
  db: Db;
  now: Date;
  requestId: string;
}

/**
 * A method decided on compute-site/{siteId} within tenantId (the site's
 * discovery inventory): only tenant-wide grants reach a site (SPEC E2).
 */
export interface SiteMethodDefinition<
  Schema extends z.ZodType<{ tenantId: string; siteId: string }, unknown> = z.ZodType<{ tenantId: string; siteId: string }, unknown>,
  Responses extends SuccessResponses = SuccessResponses,
> extends MethodFacts<Schema, Responses> {
  access: "site";
  permission: Permission;
  resource: "compute-site";
  handler(context: SiteMethodContext<z.output<Schema>>): Promise<SuccessBody<Responses>>;
}

/** A method decided on compute-tenant/{tenantId} (the tenant's TPM allow-list). */
export interface TenantMethodDefinition<
  Schema extends z.ZodType<{ tenantId: string }, unknown> = z.ZodType<{ tenantId: string }, unknown>,
  Responses extends SuccessResponses = SuccessResponses,
> extends MethodFacts<Schema, Responses> {
  access: "tenant";
  permission: Permission;
  resource: "compute-tenant";
  handler(context: Omit<SiteMethodContext<z.output<Schema>>, "site">): Promise<SuccessBody<Responses>>;
}

/** What a node method's handler gets once the node is found and the caller may act on it. */
export interface NodeMethodContext<Input> {
  input: Input;
  principal: Principal;
  node: NodeJsonRow;
  db: Db;
  now: Date;
  requestId: string;
}

/**
 * A method decided on compute-node/{nodeId} within tenantId (SPEC D1): a
 * grant on the node's pool or a tenant-wide grant covers it.
 */
export interface NodeMethodDefinition<
  Schema extends z.ZodType<{ tenantId: string; nodeId: string }, unknown> = z.ZodType<{ tenantId: string; nodeId: string }, unknown>,
  Responses extends SuccessResponses = SuccessResponses,
> extends MethodFacts<Schema, Responses> {
  access: "node";
  permission: Permission;
  resource: "compute-node";
  handler(context: NodeMethodContext<z.output<Schema>>): Promise<SuccessBody<Responses>>;
}

/** What a caller method's handler gets: the authenticated principal, the only resource it acts on. */
export interface CallerMethodContext<Input> {
  input: Input;
  principal: Principal;
  db: Db;
  now: Date;
  requestId: string;
}

/**
 * A method about the caller themselves (their own notification settings): no
 * pool, site or tenant to authorize on, so no permission; the handler
 * decides who it answers and narrows what it reads to the caller's grants.
 */
export interface CallerMethodDefinition<
  Schema extends z.ZodType = z.ZodType,
  Responses extends SuccessResponses = SuccessResponses,
> extends MethodFacts<Schema, Responses> {
  access: "caller";
  /** who may call, as the reference's "Decided as …" sentence says it */
  callers: string;
  handler(context: CallerMethodContext<z.output<Schema>>): Promise<SuccessBody<Responses>>;
}

export type MethodDefinition =
  | PoolMethodDefinition
  | MachineMethodDefinition
  | SiteMethodDefinition
  | TenantMethodDefinition
  | NodeMethodDefinition
  | CallerMethodDefinition;

export function defineCallerMethod<Schema extends z.ZodType, Responses extends SuccessResponses>(
  definition: Omit<CallerMethodDefinition<Schema, Responses>, "access">,
): CallerMethodDefinition<Schema, Responses> {
  return { ...definition, access: "caller" };
}

export function defineNodeMethod<
  Schema extends z.ZodType<{ tenantId: string; nodeId: string }, unknown>,
  Responses extends SuccessResponses,
>(definition: Omit<NodeMethodDefinition<Schema, Responses>, "access">): NodeMethodDefinition<Schema, Responses> {
  return { ...definition, access: "node" };
}

export function defineSiteMethod<
  Schema extends z.ZodType<{ tenantId: string; siteId: string }, unknown>,
  Responses extends SuccessResponses,
>(definition: Omit<SiteMethodDefinition<Schema, Responses>, "access">): SiteMethodDefinition<Schema, Responses> {
  return { ...definition, access: "site" };
}

export function defineTenantMethod<Schema extends z.ZodType<{ tenantId: string }, unknown>, Responses extends SuccessResponses>(
  definition: Omit<TenantMethodDefinition<Schema, Responses>, "access">,
): TenantMethodDefinition<Schema, Responses> {
  return { ...definition, access: "tenant" };
}

export function definePoolMethod<Schema extends z.ZodType<PoolScopedInput, unknown>, Responses extends SuccessResponses>(
  definition: Omit<PoolMethodDefinition<Schema, Responses>, "access">,
): PoolMethodDefinition<Schema, Responses> {
  return { ...definition, access: "pool" };
}

export function defineMachineMethod<Schema extends z.ZodType, Credential, Responses extends SuccessResponses>(
  definition: Omit<MachineMethodDefinition<Schema, Credential, Responses>, "access">,
): MachineMethodDefinition<Schema, Credential, Responses> {
  return { ...definition, access: "machine" };
}
