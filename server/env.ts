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
  // GET /metrics is served only when set, to `Authorization: Bearer <it>`;
  // empty counts as unset (`BC_METRICS_TOKEN=` in a compose file means off).
  BC_METRICS_TOKEN: z.preprocess((value) => (value === "" ? undefined : value), z.string().min(16).optional()),
  // `npm run bench` only: the Next.js floor (server/bench-floor/) answers calls
  // carrying it in `x-bench-floor`; unset (every deployment), it is a 404.
  BC_BENCH_FLOOR_TOKEN: z.preprocess((value) => (value === "" ? undefined : value), z.string().min(32).optional()),

  // The machine join (SPEC B5).
  // 32 bytes, base64 or hex: encrypts each tenant CA's private key at rest.
  // Unset with the embedded database: a development key is generated into
  // BC_PGLITE_DIR's parent folder (docs/configuration.md).
  BC_CA_KEY_ENCRYPTION_KEY: z.string().min(1).optional(),
  // Flood guard: live pending requests per pool and per site.
  BC_MAX_PENDING_PER_POOL: z.coerce.number().int().min(1).default(1000),
  BC_MAX_PENDING_PER_SITE: z.coerce.number().int().min(1).default(1000),

  // 1: the sign-in page lists the demo accounts (when they still have the demo
  // password); 0: never. Unset: 1 with the embedded database only.
  BC_DEMO_MODE: z.enum(["0", "1"]).optional(),
  // Sign-in throttling (server/auth/sign-in-throttle.ts, SPEC G9): failed
  // sign-ins per account from one client address (…_PER_ACCOUNT), and per
  // address across accounts, within the window; past either, sign-in from that
  // address is refused until the window ends. Joins per credential per minute.
  BC_SIGNIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(5),
  BC_SIGNIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(50),
  BC_SIGNIN_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  // Reverse proxies in front of the app that append to X-Forwarded-For: the
  // client address is the entry this many from the right (0: the socket's
  // peer, X-Forwarded-For ignored: a client writes what it likes there).
  BC_TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  // A rack of 5,000 machines and their retries through one token within a
  // minute or two (bench: boot storm) stays under it; a leaked token's reach
  // is bounded by its uses and the pending flood guard besides.
  BC_JOIN_MAX_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(30_000),
  // Joins one app process works on at once; the rest wait their turn (join-admission.ts).
  BC_JOIN_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(4),
  // The console's sign-in (next-auth). NEXTAUTH_SECRET signs the session JWTs.
  NEXTAUTH_URL: z.string().url().optional(),
  NEXTAUTH_SECRET: z.string().min(1).optional(),
  // An OIDC provider is switched on when all three are set.
  BC_OIDC_ISSUER: z.string().url().optional(),
  BC_OIDC_CLIENT_ID: z.string().min(1).optional(),
  BC_OIDC_CLIENT_SECRET: z.string().min(1).optional(),

  // Background workers (webhook delivery, mail notifications, retention): started inside the app
  // process unless `off`; `npm run worker` runs them as a process of their own.
  BC_WORKERS: z.enum(["on", "off"]).default("on"),
  // Retention: decided requests are deleted this many days after their last
  // change; the events of deleted requests are kept this many days.
  BC_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  BC_EVENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  // Inventory snapshots are deleted this many days after they were taken;
  // each node's latest stays however old it is (SPEC G5).
  BC_INVENTORY_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
  // SPEC I3: a node of a pool that requires a known boot whose last quote is older reads as stale
  BC_ATTESTATION_MAX_AGE_SECONDS: z.coerce.number().int().min(60).max(31_536_000).default(86_400),
  BC_RETENTION_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  // How often an idle webhook worker looks for new events and due retries.
  BC_WEBHOOK_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  // One POST, answer included; a claim's lease (a worker killed mid-attempt
  // leaves its delivery to others after this; longer than the timeout, or two
  // workers would send one delivery at once as a matter of course); the first
  // retry's delay (doubling from there, with jitter, capped at an hour).
  BC_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  BC_WEBHOOK_LEASE_MS: z.coerce.number().int().min(1_000).max(3_600_000).optional(),
  BC_WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(10_000),
  // 1: webhooks may target http and loopback/private addresses (development
  // and tests only; see server/webhooks/webhook-target.ts).
  BC_WEBHOOK_ALLOW_PRIVATE: z.enum(["0", "1"]).default("0"),

  // Mail notifications (docs/notifications.md): a nodemailer connection URL
  // (smtp://user:pass@host:587, smtps://… for TLS from the start). smtp://
  // requires STARTTLS unless the URL says otherwise (?requireTLS=false, or
  // ?ignoreTLS=true). Unset: no mail is sent (deliveries are recorded as
  // not_configured; in development on the embedded database each mail is
  // logged instead). Empty counts as unset.
  BC_SMTP_URL: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, "must be an smtp:// or smtps:// URL (e.g. smtp://user:pass@mail.example:587)")
      .refine((value) => URL.canParse(value), "must be an smtp:// or smtps:// URL (e.g. smtp://user:pass@mail.example:587)")
      .optional(),
  ),
  // The From of every mail: an address, or `Name <address>`.
  BC_SMTP_FROM: z
    .string()
    .regex(/^(?:[^<>\r\n]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/, "must be an address or `Name <address>`")
    .default("Better Compute <notifications@localhost>"),
});

const checkedEnvSchema = envSchema.refine(
  (values) => values.BC_WEBHOOK_LEASE_MS === undefined || values.BC_WEBHOOK_LEASE_MS > values.BC_WEBHOOK_TIMEOUT_MS,
  { path: ["BC_WEBHOOK_LEASE_MS"], message: "must be longer than BC_WEBHOOK_TIMEOUT_MS" },
);

export type Env = z.output<typeof envSchema>;

/** A bad variable, by name; `parseEnv` throws it for the first one. */
export class InvalidEnvironmentError extends Error {
  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = "InvalidEnvironmentError";
  }
}

/** `variables` parsed (not cached; `env()` is the cached one for process.env). */
export function parseEnv(variables: Record<string, string | undefined>): Env {
  const result = checkedEnvSchema.safeParse(variables);
  if (!result.success) {
    const [first] = result.error.issues;
    throw new InvalidEnvironmentError(first!.path.join("."), first!.message);
  }
  return result.data;
}

let parsed: Env | undefined;

export function env(): Env {
  parsed ??= parseEnv(process.env);
  return parsed;
}
