import type { z } from "zod";
import type { PoolJson } from "@/lib/pools/pool-json";
import type { poolSettingsInput } from "@/lib/pools/pool-settings-input";
import { callMethod } from "./call-method";

// Typed calls of the pool methods the console makes (SPEC H1).

export const updatePool = (input: z.input<typeof poolSettingsInput>) => callMethod<{ pool: PoolJson }>("pools/update", input);
