import { readFile } from "node:fs/promises";
import { describe, expect, inject, it } from "vitest";
import { PART_A_INTRO, PART_A_SENTENCES, asPageText } from "@/test/docs/part-a-reference";

// The reference pages and the OpenAPI document, served by the app without signing in.
const get = (path: string) => fetch(`${inject("baseUrl")}${path}`, { redirect: "manual" });

describe("API reference over HTTP", () => {
  it("serves /docs/api/joinRequests to anyone, with the method table and an input table per method", async () => {
    const response = await get("/docs/api/joinRequests");
    expect(response.status).toBe(200);
    const html = await response.text();
    // (booleans: a failure should not print the whole page)
    expect(html.includes("All 3 methods are served by this release.")).toBe(true);
    expect(html.match(/data-testid="method-row"/g)?.length).toBe(3);
    expect(html.match(/data-testid="input-table"/g)?.length).toBe(3);
    expect(html.includes("<code>POST /api/compute/joinRequests/approve</code>")).toBe(true);
  });

  it("carries every Part A sentence of joinRequests whole, as a reader sees the page", async () => {
    const html = await (await get("/docs/api/joinRequests")).text();
    const text = html
      .replace(/<[^>]*>/g, "")
      .replaceAll("&#x27;", "'")
      .replaceAll("&quot;", '"')
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&amp;", "&");
    const missing = [...PART_A_INTRO, ...Object.values(PART_A_SENTENCES).flat()].filter((sentence) => !text.includes(asPageText(sentence)));
    expect(missing).toEqual([]);
  });

  it("lists every group at /docs/api; an unknown group is 404", async () => {
    const html = await (await get("/docs/api")).text();
    for (const group of ["joinRequests", "joinTokens", "events", "nodes", "discovery", "tpmAllowList"]) {
      expect(html.includes(`/docs/api/${group}`), group).toBe(true);
    }
    expect((await get("/docs/api/noSuchGroup")).status).toBe(404);
  });

  it("serves the interactive reference to anyone: one same-origin script carrying this response's CSP nonce, fed by /api/openapi.json", async () => {
    const response = await get("/docs/api/reference");
    expect(response.status).toBe(200);
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
    const html = await response.text();
    expect(html.match(/<script /g)?.length).toBe(2); // the script and its JSON configuration, no inline code
    expect(html.includes(`<script src="/docs/api/reference/scalar.js" nonce="${nonce}"></script>`)).toBe(true);
    expect(html.includes("&quot;url&quot;:&quot;/api/openapi.json&quot;")).toBe(true);
    const script = await get("/docs/api/reference/scalar.js");
    expect({ status: script.status, type: script.headers.get("content-type") }).toEqual({
      status: 200,
      type: "text/javascript; charset=utf-8",
    });
    expect((await script.text()).includes("createApiReference")).toBe(true);
    expect((await (await get("/docs/api")).text()).includes('href="/docs/api/reference"')).toBe(true);
  });

  it("GET /api/openapi.json is the committed docs/openapi.json", async () => {
    const response = await get("/api/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual(JSON.parse(await readFile("docs/openapi.json", "utf8")));
  });
});
