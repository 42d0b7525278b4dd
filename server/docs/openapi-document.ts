import "server-only";
import { HTTP_STATUS_BY_CODE, type ErrorCode } from "@/lib/api/error-envelope";
import { METHODS } from "../methods/registry";
import { groupDocs, type MethodDoc } from "./method-docs";
import { responseComponents } from "./response-schemas";

// OpenAPI 3.1 of every published method, made from the registry and its zod
// input and response schemas (zod 4's JSON Schema output): the same source as the pages.

const SECURITY_SCHEMES = {
  serviceKey: { type: "http", scheme: "bearer", description: "A service key: `Authorization: Bearer bcsk_<id>.<secret>`." },
  consoleSession: {
    type: "apiKey",
    in: "cookie",
    name: "next-auth.session-token",
    description: "The console's session; mutations must come from the console's origin.",
  },
  joinToken: { type: "http", scheme: "bearer", description: "A pool join token: `Bearer bcjt_<id>.<secret>`." },
  enrollmentKey: { type: "http", scheme: "bearer", description: "A site enrollment key: `Bearer bcse_<id>.<secret>`." },
  nodeJwt: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "A JWT signed with the node's own key (SPEC D2)." },
} as const;

/** The error codes a method can answer with, by how it is called. */
function errorCodes(method: MethodDoc): ErrorCode[] {
  const always: ErrorCode[] = ["INVALID_ARGUMENT", "UNAUTHENTICATED", "PAYLOAD_TOO_LARGE", "INTERNAL", "UNAVAILABLE"];
  if (method.kind === "machine") return [...always, "PERMISSION_DENIED", "JOIN_REJECTED", "INVALID_STATE", "RESOURCE_EXHAUSTED"];
  return [...always, "PERMISSION_DENIED", "NOT_FOUND", ...(method.kind === "mutation" ? (["INVALID_STATE"] as const) : [])];
}

function responses(method: MethodDoc, success: { 200: string; 202?: string }) {
  const error = (codes: ErrorCode[]) => ({
    description: codes.join(", "),
    headers: { "x-request-id": { schema: { type: "string" } } },
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  });
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodes(method))
    byStatus.set(HTTP_STATUS_BY_CODE[code], [...(byStatus.get(HTTP_STATUS_BY_CODE[code]) ?? []), code]);
  const answer = (description: string, schema: string) => ({
    description,
    headers: { "x-request-id": { schema: { type: "string" } } },
    content: { "application/json": { schema: { $ref: schema } } },
  });
  const result: Record<string, unknown> = { 200: answer("Success.", success[200]) };
  if (success[202]) result[202] = answer("Accepted, not done: a pending join request, or a TPM challenge to answer.", success[202]);
  for (const [status, codes] of [...byStatus.entries()].sort(([a], [b]) => a - b)) {
    result[status] =
      status === 503
        ? { ...error(codes), headers: { "x-request-id": { schema: { type: "string" } }, "retry-after": { schema: { type: "integer" } } } }
        : error(codes);
  }
  result[405] = { description: "METHOD_NOT_ALLOWED: anything but POST." };
  return result;
}

function security(method: MethodDoc) {
  const { definition } = method;
  if (definition.access === "machine") return definition.credentials.map((credential) => ({ [credential]: [] }));
  return [{ serviceKey: [] }, { consoleSession: [] }];
}

/** `joinRequests/list` → `joinRequestsList` */
const operationId = (name: string) => name.replace(/\/(.)/, (_match, first: string) => first.toUpperCase());

export function openApiDocument() {
  const groups = groupDocs();
  const components = responseComponents(METHODS);
  const paths: Record<string, unknown> = {};
  for (const group of groups) {
    for (const method of group.methods) {
      const description = [
        method.decided,
        method.description,
        method.published,
        `Authorization ${method.authorization}; kind ${method.kind}; module \`${method.module}\`; phase ${method.phase}; status ${method.status}.`,
      ]
        .filter(Boolean)
        .join("\n\n");
      paths[method.path] = {
        post: {
          operationId: operationId(method.name),
          tags: [group.name],
          summary: method.summary,
          description,
          security: security(method),
          requestBody: { required: true, content: { "application/json": { schema: method.inputSchema } } },
          responses: responses(method, components.refs.get(method.name)!),
        },
      };
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Better Compute control plane",
      version: "0.3.0",
      description: "Join requests, join tokens, events, nodes and the attestors' knowledge. Generated from the method registry.",
    },
    // Relative, as OpenAPI's own default: the deployment that serves this document
    // (GET /api/openapi.json) answers its paths. The committed copy is the same for
    // every deployment, so no origin is baked in; a client outside the browser sets
    // its own (openapi-fetch's `baseUrl`, e.g. http://localhost:3000).
    servers: [{ url: "/", description: "The deployment serving this document." }],
    tags: groups.map((group) => ({ name: group.name, description: group.description })),
    paths,
    components: { schemas: components.schemas, securitySchemes: SECURITY_SCHEMES },
  };
}
