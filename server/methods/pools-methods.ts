import "server-only";
import { toPoolJson, updatePoolResponse } from "@/lib/pools/pool-json";
import { updatePoolInput } from "@/lib/validations/pools";
import { updatePoolSettings } from "../admin/update-pool-settings";
import { definePoolMethod } from "./define-method";

// SPEC H1: a pool's settings, as a published method.
export const updatePoolMethod = definePoolMethod({
  resource: "compute-pool",
  phase: "v0.4",
  status: "registered",
  module: "server",
  name: "pools/update",
  responses: { 200: updatePoolResponse },
  kind: "mutation",
  permission: "compute:pools:manage",
  summary: "Changes a pool's settings: `approvalsRequired` (1 to 5), how many distinct principals must approve a join request of the pool.",
  description:
    "Only `tenant-admin` holds `compute:pools:manage`. A setting that is omitted stays as it is; setting what is already so returns " +
    "the pool unchanged, without an event. Requests already waiting keep the count they were deferred with. " +
    "A pool the tenant does not own is `NOT_FOUND`.",
  publishes: [{ type: "compute.admin.changed", carries: " (noun `pool`, verb `update`) with the new and previous `approvalsRequired`" }],
  input: updatePoolInput,
  handler: async ({ db, pool, input, principal, now }) => {
    const result = await updatePoolSettings({
      db,
      actor: principal.id,
      now,
      tenantId: pool.tenantId,
      poolId: pool.id,
      approvalsRequired: input.approvalsRequired,
    });
    return { pool: toPoolJson(result.pool) };
  },
});
