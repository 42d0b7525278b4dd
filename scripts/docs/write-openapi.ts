// npm run openapi: writes the OpenAPI document the registry generates to
// docs/openapi.json (committed; a test fails when it is stale).
import { writeFile } from "node:fs/promises";
import { openApiDocument } from "@/server/docs/openapi-document";

export const OPENAPI_FILE = "docs/openapi.json";
export const renderOpenApi = () => `${JSON.stringify(openApiDocument(), null, 2)}\n`;

if (process.argv[1]?.endsWith("write-openapi.ts")) {
  await writeFile(OPENAPI_FILE, renderOpenApi());
  console.log(`wrote ${OPENAPI_FILE}`);
}
