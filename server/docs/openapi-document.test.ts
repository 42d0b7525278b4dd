import { readFile } from "node:fs/promises";
import { validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { METHODS } from "../methods/registry";
import { OPENAPI_FILE, OPENAPI_TYPES_FILE, renderOpenApi, renderOpenApiTypes } from "@/scripts/docs/write-openapi";
import { openApiDocument } from "./openapi-document";

// OpenAPI 3.1 from the registry: valid, complete, and the committed copy current.
describe("the OpenAPI document", () => {
  it("validates as OpenAPI 3.1 with a maintained validator", async () => {
    const result = await validate(structuredClone(openApiDocument()) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
  });

  it("has every registered method, with its request schema and the error envelope", () => {
    const document = openApiDocument();
    for (const method of METHODS) {
      const operation = (document.paths[`/api/compute/${method.name}`] as { post: Record<string, any> }).post;
      expect(operation, method.name).toBeDefined();
      expect(operation.requestBody.content["application/json"].schema.type).toBe("object");
      expect(operation.responses[400].content["application/json"].schema.$ref).toBe("#/components/schemas/Error");
      expect(operation.responses[503].headers["retry-after"]).toBeDefined();
    }
    const list = (document.paths["/api/compute/joinRequests/list"] as { post: Record<string, any> }).post;
    expect(list.requestBody.content["application/json"].schema).toMatchObject({
      additionalProperties: false,
      required: ["tenantId", "poolId"],
      properties: { limit: { default: 100 }, tenantId: { maxLength: 128, pattern: "^[A-Za-z0-9._:-]{1,128}$" } },
    });
    const join = (document.paths["/api/compute/nodes/join"] as { post: Record<string, any> }).post;
    expect(join.security).toEqual([{ joinToken: [] }, { enrollmentKey: [] }]);
  });

  it("declares every method's success answer from the registry's response schemas", () => {
    const document = openApiDocument();
    const schemas = document.components.schemas as Record<string, any>;
    const resolve = (ref: string) => schemas[ref.replace("#/components/schemas/", "")];
    for (const method of METHODS) {
      const operation = (document.paths[`/api/compute/${method.name}`] as { post: Record<string, any> }).post;
      const schema = resolve(operation.responses[200].content["application/json"].schema.$ref);
      expect(schema?.type ?? schema?.oneOf ?? schema?.anyOf, method.name).toBeDefined();
      expect(Boolean(operation.responses[202]), method.name).toBe(method.responses[202] !== undefined);
    }
    expect(resolve("#/components/schemas/JoinRequestsListResponse")).toMatchObject({
      required: ["joinRequests"],
      properties: { joinRequests: { items: { $ref: "#/components/schemas/JoinRequest" } }, nextCursor: { type: "string" } },
    });
    expect(schemas.JoinRequest.properties.state.enum).toEqual(["pending", "approved", "rejected", "expired", "consumed"]);
    expect(schemas.Error.properties.error.properties.code.enum).toContain("INVALID_STATE");
    const join = (document.paths["/api/compute/nodes/join"] as { post: Record<string, any> }).post;
    expect(join.responses[200].content["application/json"].schema.$ref).toBe("#/components/schemas/JoinAdmitted");
    expect(resolve(join.responses[202].content["application/json"].schema.$ref).oneOf).toEqual([
      { $ref: "#/components/schemas/JoinPending" },
      { $ref: "#/components/schemas/JoinChallenge" },
    ]);
  });

  it("is committed as docs/openapi.json exactly as the registry generates it (run npm run openapi)", async () => {
    expect(await readFile(OPENAPI_FILE, "utf8")).toBe(renderOpenApi());
  });

  it("has its typed-client types committed as docs/client/openapi.d.ts, as openapi-typescript generates them (run npm run openapi)", async () => {
    expect(await readFile(OPENAPI_TYPES_FILE, "utf8")).toBe(await renderOpenApiTypes());
  });
});
