/** Sent with every answer, static assets included; the CSP and HSTS come from proxy.ts. */
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships Wasm and data files that must be loaded from node_modules at
  // run time, and pg has optional native bindings: keep both out of the bundle.
  // prom-client keeps its cluster state in module scope: one copy per process.
  // OpenTelemetry's pg instrumentation wraps `pg` as Node's require loads it,
  // which needs both loaded by Node, not bundled (server/tracing).
  // @peculiar/x509 (server-only: server/pki) brings ~350 modules (its asn1
  // schemas, tsyringe): Turbopack sizes every module id to the whole app's
  // module count (20 x the count, rounded up to a power of ten), and past
  // 5,000 modules every id in every browser chunk took a sixth digit, 0.4 kB
  // gzipped on each page's first load (issue #38). Loaded by Node, they are
  // not counted; the app stays under 5,000 with 150 to 400 modules to spare
  // (measured 2026-12-07 by adding modules until the ids grew).
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "pg",
    "prom-client",
    "@peculiar/x509",
    "@opentelemetry/api",
    "@opentelemetry/sdk-trace-node",
    "@opentelemetry/resources",
    "@opentelemetry/instrumentation",
    "@opentelemetry/instrumentation-pg",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/exporter-trace-otlp-proto",
  ],
  // `npm run build` type-checks after Next.js's build, with TypeScript 7's
  // native compiler (`npm run typecheck`): the same check of the same project
  // as Next.js's own, which runs TypeScript 5's JavaScript compiler (the whole
  // project alone: 12 CPU s against 36; a fresh build: 60 against 76; issue 33).
  // TypeScript 5 stays for ESLint, which needs its API.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
  // A separate build folder lets a benchmark or a second checkout build
  // without replacing the one a running test server uses.
  distDir: process.env.BC_NEXT_DIST_DIR || ".next",
  // BC_NEXT_SERVER_MINIFY=0: server code keeps its function names, so that a
  // CPU profile (npm run bench:profile) names our functions, not `t9`.
  experimental: {
    serverMinification: process.env.BC_NEXT_SERVER_MINIFY !== "0",
    // CI builds once from a fresh clone: nothing ever reads Turbopack's build
    // cache there, and writing it took 11 s of a 90 s build (issue 33).
    turbopackFileSystemCacheForBuild: !process.env.CI,
    // Fewer, larger browser chunks (default minimum 50 kB of source): chunks a
    // page always loads together were shipped apart (the framework's 13 and
    // 30 kB, the console's react-query core in an 8 and a 20 kB chunk, a
    // page's loader stubs), and gzip compresses each file on its own. At
    // 100 kB every page's first load is 0.5-1.6 kB smaller gzipped (the
    // queue 1.1 kB); what a navigation between console pages fetches is
    // unchanged (+0.1% over all 182 pairs); the chunks a dialog loads on
    // first use hold some modules twice (all static JS +9 kB gzipped).
    // Measured 2026-12-07 (issue #38); npm run bench prints the two figures.
    turbopackChunking: { minChunkSize: 100_000 },
  },
};

export default nextConfig;
