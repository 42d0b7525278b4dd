import "server-only";
import { z } from "zod";
import { errorBody } from "@/lib/api/error-envelope";
import { joinRequestJson, machineJson } from "@/lib/join-requests/join-request-json";
import { joinTokenJson } from "@/lib/join-tokens/join-token-json";
import { eventJson } from "@/lib/events/event-json";
import { nodeJson } from "@/lib/nodes/node-json";
import { snapshotJson } from "@/lib/inventory/snapshot-json";
import { discoveredMachineJson, tpmAllowedKeyJson, tpmTrustedRootJson } from "@/lib/attestation/attestation-json";
import { joinAdmitted, joinChallenge, joinPending } from "@/lib/api/responses/nodes";
import type { MethodDefinition } from "../methods/define-method";

// The answers' JSON Schemas as OpenAPI components, from the wire shapes in lib/
// and each method's declared responses: the shapes a reader (or a generated
// client) meets in several answers get names of their own and are referenced.

const NAMED_SHAPES: Record<string, z.ZodType> = {
  Error: errorBody,
  JoinRequest: joinRequestJson,
  Machine: machineJson,
  JoinToken: joinTokenJson,
  Event: eventJson,
  Node: nodeJson,
  InventorySnapshot: snapshotJson,
  DiscoveredMachine: discoveredMachineJson,
  TpmAllowedKey: tpmAllowedKeyJson,
  TpmTrustedRoot: tpmTrustedRootJson,
  JoinAdmitted: joinAdmitted,
  JoinPending: joinPending,
  JoinChallenge: joinChallenge,
};

const ref = (id: string) => `#/components/schemas/${id}`;

/** `joinRequests/list` → `JoinRequestsList` */
const pascalName = (name: string) => name.replace(/(^|\/)(.)/g, (_match, _slash: string, first: string) => first.toUpperCase());

export interface ResponseComponents {
  schemas: Record<string, Record<string, unknown>>;
  /** each method's success answers by status, as `$ref`s into `schemas` */
  refs: Map<string, { 200: string; 202?: string }>;
}

export function responseComponents(methods: readonly MethodDefinition[]): ResponseComponents {
  const registry = z.registry<{ id: string }>();
  const idOf = new Map<z.ZodType, string>();
  const name = (schema: z.ZodType, id: string) => {
    if (!idOf.has(schema)) {
      idOf.set(schema, id);
      registry.add(schema, { id });
    }
    return idOf.get(schema)!;
  };
  for (const [id, schema] of Object.entries(NAMED_SHAPES)) name(schema, id);
  const refs = new Map<string, { 200: string; 202?: string }>();
  for (const method of methods) {
    const ok = name(method.responses[200], `${pascalName(method.name)}Response`);
    const accepted = method.responses[202] && name(method.responses[202], `${pascalName(method.name)}AcceptedResponse`);
    refs.set(method.name, accepted ? { 200: ref(ok), 202: ref(accepted) } : { 200: ref(ok) });
  }
  const { schemas } = z.toJSONSchema(registry, { io: "output", uri: ref, unrepresentable: "any" });
  const components: Record<string, Record<string, unknown>> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _dialect, $id: _id, ...rest } = schema as Record<string, unknown>;
    components[id] = rest;
  }
  return { schemas: components, refs };
}
