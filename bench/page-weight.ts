import { gzipSync } from "node:zlib";
import type pg from "pg";
import { newId } from "@/lib/ids";
import { hashPassword } from "@/server/auth/password";

// A console page's JavaScript weight (the queue's, a node's): what a browser
// downloads on a first load of the page (every <script src> of the HTML but the nomodule
// polyfills modern browsers skip), each gzipped at level 9, summed.

const USER = { email: "bench@bench.test", password: "bench-password-123" };

export async function createBenchUser(client: pg.Client, tenantId: string): Promise<void> {
  const id = newId("usr");
  await client.query(`INSERT INTO users (id, email, name, password_hash) VALUES ($1, $2, 'bench', $3)`, [
    id,
    USER.email,
    await hashPassword(USER.password),
  ]);
  await client.query(`INSERT INTO role_grants (id, tenant_id, pool_id, role, user_id) VALUES ($1, $2, NULL, 'pool_admin', $3)`, [
    newId("grant"),
    tenantId,
    id,
  ]);
}

/** Signs in through next-auth's credentials flow and returns the Cookie header. */
async function signIn(baseUrl: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...value] = pair!.split("=");
      jar.set(name!, value.join("="));
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const login = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    body: new URLSearchParams({ csrfToken, email: USER.email, password: USER.password, json: "true" }),
  });
  keep(login);
  if (![...jar.keys()].some((name) => name.includes("session-token"))) throw new Error(`bench sign-in failed (${login.status})`);
  return cookie();
}

export interface PageWeight {
  path: string;
  scripts: number;
  rawBytes: number;
  gzipBytes: number;
  /** each script's gzipped size, largest first */
  files: { src: string; gzipBytes: number }[];
}

export const queuePageWeight = (baseUrl: string, poolId: string) => pageWeight(baseUrl, `/pools/${encodeURIComponent(poolId)}`);

export const nodePageWeight = (baseUrl: string, poolId: string, nodeId: string) =>
  pageWeight(baseUrl, `/pools/${encodeURIComponent(poolId)}/nodes/${encodeURIComponent(nodeId)}`);

async function pageWeight(baseUrl: string, path: string): Promise<PageWeight> {
  const cookie = await signIn(baseUrl);
  const page = await fetch(`${baseUrl}${path}`, { headers: { cookie } });
  if (!page.ok) throw new Error(`GET ${path} → ${page.status}`);
  const html = await page.text();
  const sources = [...html.matchAll(/<script\b([^>]*)>/g)]
    .map((match) => match[1]!)
    .filter((attributes) => !/\bnomodule\b/i.test(attributes))
    .map((attributes) => /\bsrc="([^"]+)"/.exec(attributes)?.[1])
    .filter((src): src is string => Boolean(src));
  let rawBytes = 0;
  const files: PageWeight["files"] = [];
  for (const src of new Set(sources)) {
    const body = Buffer.from(await (await fetch(new URL(src, baseUrl))).arrayBuffer());
    rawBytes += body.byteLength;
    files.push({ src, gzipBytes: gzipSync(body, { level: 9 }).byteLength });
  }
  files.sort((a, b) => b.gzipBytes - a.gzipBytes);
  const gzipBytes = files.reduce((sum, file) => sum + file.gzipBytes, 0);
  return { path, scripts: files.length, rawBytes, gzipBytes, files };
}
