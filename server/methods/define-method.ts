import "server-only";
import type { z } from "zod";
import type { Db } from "../db/client";
import type { Principal } from "../auth/principal";
import type { Permission } from "../auth/roles";
import type { PoolFacts } from "../pools/find-pool";

/** What a handler gets once the caller is authenticated, authorized and the pool found. */
export interface MethodContext<Input> {
  input: Input;
  principal: Principal;
  pool: PoolFacts;
  db: Db;
  now: Date;
  requestId: string;
}

type PoolScopedInput = { tenantId: string; poolId: string };

/**
 * A published method, declared once: the route table, the docs and the
 * wrapper's checks all read these fields.
 */
export interface MethodDefinition<Schema extends z.ZodType<PoolScopedInput, unknown> = z.ZodType<PoolScopedInput, unknown>> {
  /** `<group>/<method>`, served at POST /api/compute/<group>/<method> */
  name: string;
  kind: "read" | "mutation";
  permission: Permission;
  /** Every method here is decided on compute-pool/{poolId} within tenantId. */
  resource: "compute-pool";
  phase: string;
  status: "registered";
  module: "server";
  summary: string;
  input: Schema;
  // A method signature (not a property) so that definitions of different
  // inputs fit one registry list.
  handler(context: MethodContext<z.output<Schema>>): Promise<unknown>;
}

export function defineMethod<Schema extends z.ZodType<PoolScopedInput, unknown>>(
  definition: MethodDefinition<Schema>,
): MethodDefinition<Schema> {
  return definition;
}
