import { z } from "zod";
import { optional } from "@/lib/validations/fields";
import { updatePoolInput } from "@/lib/validations/pools";
import { poolNotificationSettingsFields } from "@/lib/notifications/settings-schemas";
import { bootStatesField } from "./boot-states";

// pools/update's whole input: SPEC H1's approvals required (lib/validations/
// pools.ts, which the command line shares), SPEC I2's boot settings and the
// notification defaults and escalation (issue #39). Here,
// beside the boot-state schema, so lib/validations does not import lib/pools.
export const poolSettingsInput = updatePoolInput.extend({
  // the whole list (it replaces the pool's), and whether a join must match one
  bootStates: optional(bootStatesField),
  requireKnownBoot: optional(z.boolean({ error: "must be true or false" })),
  ...poolNotificationSettingsFields,
});
export type PoolSettingsInput = z.output<typeof poolSettingsInput>;
