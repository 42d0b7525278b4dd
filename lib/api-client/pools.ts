import type { z } from "zod";
import type { PoolJson } from "@/lib/pools/pool-json";
import type { updatePoolInput } from "@/lib/validations/pools";
import { callMethod } from "./call-method";

// Typed calls of the pool methods the console makes (SPEC H1).

export const updatePool = (input: z.input<typeof updatePoolInput>) => callMethod<{ pool: PoolJson }>("pools/update", input);
