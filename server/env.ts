import "server-only";
import { z } from "zod";

// The environment, parsed once at first use; a bad value fails fast with a
// message naming the variable.
const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL")
    .optional(),
  // Where the embedded PGlite database lives when DATABASE_URL is unset.
  BC_PGLITE_DIR: z.string().min(1).default(".data/pglite"),
  // Connections per app instance (PostgreSQL only).
  BC_DB_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
  BC_LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
});

export type Env = z.output<typeof envSchema>;

let parsed: Env | undefined;

export function env(): Env {
  if (parsed) return parsed;
  const result = envSchema.safeParse(process.env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  parsed = result.data;
  return parsed;
}
