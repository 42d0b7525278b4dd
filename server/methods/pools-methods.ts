import "server-only";
import { toPoolJson, updatePoolResponse } from "@/lib/pools/pool-json";
import { poolSettingsInput } from "@/lib/pools/pool-settings-input";
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
  summary:
    "Changes a pool's settings: `approvalsRequired` (1 to 5), how many distinct principals must approve a join request of the pool; " +
    "`bootStates`, the boot states a joining machine's TPM quote may match; `requireKnownBoot`, whether it must match one; " +
    "the notification default and escalation.",
  description:
    "Only `tenant-admin` holds `compute:pools:manage`. A setting that is omitted stays as it is; setting what is already so returns " +
    "the pool unchanged, without an event. Requests already waiting keep the count they were deferred with. " +
    "A pool the tenant does not own is `NOT_FOUND`. " +
    "`bootStates` (SPEC I2) replaces the pool's whole list: each `{ name, pcrs }` with `pcrs` PCR index (0-23) → SHA-256 value in " +
    "lowercase hex, names unique (case-insensitive), at most 32 states; send the list you read with your change (a concurrent " +
    "update is applied after or before yours, whole; the event shows what each replaced). A TPM join into a pool with boot states " +
    "is asked for a quote of the PCRs they name. `requireKnownBoot` true needs at least one state; then a quote matching none " +
    "defers the join `boot-state-unknown`, and a join without a TPM is refused. " +
    "Notifications (issue #39): `notifyDefault` (`immediate`, `digest_15m`, `hourly`, `off`) is what a user who may decide the pool " +
    "hears when they have not chosen (`notifications/updateSettings`); `escalateAfterMinutes` (1 to 10080, or null: no escalation) " +
    "and `escalationEmails` (at most 20 addresses, stored lowercased, each once) say who hears of a request still pending after that long.",
  publishes: [
    { type: "compute.admin.changed", carries: " (noun `pool`, verb `update`) with the new and previous value of each setting changed" },
  ],
  input: poolSettingsInput,
  handler: async ({ db, pool, input, principal, now }) => {
    const result = await updatePoolSettings({
      db,
      actor: principal.id,
      now,
      tenantId: pool.tenantId,
      poolId: pool.id,
      approvalsRequired: input.approvalsRequired,
      bootStates: input.bootStates,
      requireKnownBoot: input.requireKnownBoot,
      notifyDefault: input.notifyDefault,
      escalateAfterMinutes: input.escalateAfterMinutes,
      escalationEmails: input.escalationEmails,
    });
    return { pool: toPoolJson(result.pool) };
  },
});
