import "server-only";

/**
 * The first-start hint of `npm run dev`, printed from inside the server
 * because only there is the port known: `next dev` moves on to 3001, 3002, …
 * when 3000 is taken, and sets PORT to the one it listens on before it
 * registers the instrumentation.
 */
export function devHint(env: Record<string, string | undefined> = process.env): string {
  const origin = `http://localhost:${env.PORT ?? 3000}`;
  return [
    `Console: ${origin} (demo data: sign in as admin@acme.test / demo-password-123)`,
    `Try: curl -s -X POST ${origin}/api/compute/joinRequests/list \\`,
    '  -H \'authorization: Bearer bcsk_acmeadmin.demo-acme-admin-secret\' -d \'{"tenantId":"acme","poolId":"gpu-a"}\'',
  ].join("\n");
}
