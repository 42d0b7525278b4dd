import { scalarBundle } from "@/server/docs/interactive-reference";

// The interactive reference's script, from this origin (the CSP allows no CDN).
export async function GET(): Promise<Response> {
  return new Response(await scalarBundle(), {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=3600" },
  });
}
