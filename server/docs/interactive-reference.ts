import "server-only";
import { readFile } from "node:fs/promises";
import path from "node:path";

// The interactive reference (/docs/api/reference): Scalar's standalone bundle
// reading GET /api/openapi.json. Served from this origin and started by one
// script tag carrying the request's CSP nonce (script-src has 'strict-dynamic',
// so 'self' alone would not let it run); its configuration is a JSON data
// attribute, not inline code, so the app's CSP stays as it is.

export const SCALAR_BUNDLE_PATH = "/docs/api/reference/scalar.js";

const CONFIGURATION = {
  url: "/api/openapi.json",
  // Scalar's default fonts come from fonts.scalar.com, which font-src 'self' refuses.
  withDefaultFonts: false,
  telemetry: false,
  // its toolbar offers to share the document with Scalar's cloud: not for this deployment's contract
  showDeveloperTools: "never",
  metaData: { title: "API reference (interactive) — Better Compute" },
};

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The nonce proxy.ts put into this request's CSP (Next.js reads it from the same header for its own scripts). */
export function requestNonce(headers: Headers): string | null {
  return /'nonce-([A-Za-z0-9+/=]+)'/.exec(headers.get("content-security-policy") ?? "")?.[1] ?? null;
}

export function interactiveReferenceHtml(nonce: string | null): string {
  const nonceAttribute = nonce ? ` nonce="${escapeAttribute(nonce)}"` : "";
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${CONFIGURATION.metaData.title}</title>
    <link rel="icon" href="/icon.svg" type="image/svg+xml" />
  </head>
  <body>
    <noscript>The interactive reference needs JavaScript; the same contract is at <a href="/docs/api">/docs/api</a> and <a href="/api/openapi.json">/api/openapi.json</a>.</noscript>
    <script id="api-reference" type="application/json" data-configuration="${escapeAttribute(JSON.stringify(CONFIGURATION))}"></script>
    <script src="${SCALAR_BUNDLE_PATH}"${nonceAttribute}></script>
  </body>
</html>
`;
}

let bundle: Promise<string> | undefined;

/** @scalar/api-reference's browser bundle, read once from node_modules (the app runs from the project's root). */
export function scalarBundle(): Promise<string> {
  bundle ??= readFile(path.join(process.cwd(), "node_modules/@scalar/api-reference/dist/browser/standalone.js"), "utf8");
  return bundle;
}
