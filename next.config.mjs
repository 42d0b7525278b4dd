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
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "pg",
    "prom-client",
    "@opentelemetry/api",
    "@opentelemetry/sdk-trace-node",
    "@opentelemetry/resources",
    "@opentelemetry/instrumentation",
    "@opentelemetry/instrumentation-pg",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/exporter-trace-otlp-proto",
  ],
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
  },
};

export default nextConfig;
