import { interactiveReferenceHtml, requestNonce } from "@/server/docs/interactive-reference";

// GET /docs/api/reference: the interactive reference, readable without signing in like /docs/api.
export function GET(request: Request): Response {
  return new Response(interactiveReferenceHtml(requestNonce(request.headers)), {
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}
