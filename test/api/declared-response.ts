import { findMethod } from "@/server/methods/registry";

// Every success answer a test receives from a published method must be what
// the registry declares for it (SPEC: the response schemas in lib/, the same
// ones the OpenAPI document publishes): the whole API suite checks the real
// answers against the contract, not only the fields each test looks at.

// What the check reads of an answer. Every ApiResponse (api-client.ts) has it;
// named here as a shape, not imported, so api-client.ts can call this file
// without the two files importing each other.
export interface AnsweredResponse {
  status: number;
  body: unknown;
}

/** Throws, naming the method and zod's issue paths, when a 2xx body does not match its declared schema. */
export function expectDeclaredResponse(method: string, response: AnsweredResponse): void {
  if (response.status < 200 || response.status > 299) return;
  const definition = findMethod(method);
  if (!definition) throw new Error(`${method} answered ${response.status} but the registry has no such method`);
  const schema = definition.responses[response.status as keyof typeof definition.responses];
  if (!schema) throw new Error(`${method} answered ${response.status}, a status its registry entry does not declare`);
  const result = schema.safeParse(response.body);
  if (result.success) return;
  const issues = result.error.issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`);
  throw new Error(`${method} answered ${response.status} with a body its declared response schema refuses — ${issues.join("; ")}`);
}
