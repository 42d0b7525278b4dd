import { openApiDocument } from "@/server/docs/openapi-document";

// GET /api/openapi.json: the published contract, made from the method registry.
export function GET(): Response {
  return Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } });
}
