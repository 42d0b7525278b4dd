// npm run openapi: writes the OpenAPI document the registry generates to
// docs/openapi.json, and the TypeScript types a service's typed client reads
// (openapi-typescript) to docs/client/openapi.d.ts. Both are committed; tests
// fail when either is stale.
import { writeFile } from "node:fs/promises";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";
import { openApiDocument } from "@/server/docs/openapi-document";

export const OPENAPI_FILE = "docs/openapi.json";
export const OPENAPI_TYPES_FILE = "docs/client/openapi.d.ts";
export const renderOpenApi = () => `${JSON.stringify(openApiDocument(), null, 2)}\n`;

/** What `openapi-typescript docs/openapi.json --default-non-nullable=false` prints. */
export async function renderOpenApiTypes(): Promise<string> {
  // A field with a default stays optional in a request body: the server fills it in.
  const ast = await openapiTS(JSON.parse(renderOpenApi()), { defaultNonNullable: false, silent: true });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}

if (process.argv[1]?.endsWith("write-openapi.ts")) {
  await writeFile(OPENAPI_FILE, renderOpenApi());
  await writeFile(OPENAPI_TYPES_FILE, await renderOpenApiTypes());
  console.log(`wrote ${OPENAPI_FILE} and ${OPENAPI_TYPES_FILE}`);
}
