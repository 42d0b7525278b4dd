import "server-only";
import { z } from "zod";
import type { MachineCredentialKind, MethodDefinition, PublishedEvent } from "../methods/define-method";
import { METHODS } from "../methods/registry";
import { methodPath } from "@/lib/api/method-path";
import { fieldRows } from "./field-rows";
import type { MethodDocView } from "@/lib/docs/method-doc";
import { GROUP_ORDER, METHOD_GROUPS } from "./method-groups";

// The reference of every published method, read from the one registry: the
// pages under /docs/api and the OpenAPI document are both made from this.

/** A method's reference: what the pages print (MethodDocView) and what the OpenAPI document reads besides. */
export interface MethodDoc extends MethodDocView {
  group: string;
  kind: MethodDefinition["kind"] | "machine";
  /** as the reference's table prints it: "`compute:join-tokens:read` @ `compute-pool`" */
  authorization: string;
  /** the event types it publishes */
  publishes: readonly string[];
  inputSchema: Record<string, unknown>;
  definition: MethodDefinition;
}

export interface GroupDoc {
  name: string;
  description: string;
  methods: MethodDoc[];
}

const CREDENTIAL_NAMES: Record<MachineCredentialKind, string> = {
  joinToken: "join token `bcjt_…`",
  enrollmentKey: "site enrollment key `bcse_…`",
  nodeJwt: "node credential (JWT signed by the node's key)",
};

function authorizationOf(method: MethodDefinition): string {
  if (method.access === "machine") return method.credentials.map((credential) => CREDENTIAL_NAMES[credential]).join(" or ");
  if (method.access === "caller") return method.callers;
  return `\`${method.permission}\` @ \`${method.resource}\``;
}

function decidedSentence(method: MethodDefinition): string {
  if (method.access === "machine" || method.access === "caller") return `Decided as ${authorizationOf(method)}.`;
  return `Decided as \`${method.permission}\`.`;
}

/** One sentence for plain types ("Publishes `a`, `b`."); one per event when the reference says what an event carries. */
function publishedSentence(events: readonly (string | PublishedEvent)[]): string | undefined {
  if (events.length === 0) return undefined;
  if (events.every((event) => typeof event === "string")) return `Publishes ${events.map((type) => `\`${type}\``).join(", ")}.`;
  return events
    .map((event) => (typeof event === "string" ? `Publishes \`${event}\`.` : `Publishes \`${event.type}\`${event.carries}.`))
    .join(" ");
}

/** The reference's text of a method after its summary, sentence by sentence as the page prints it. */
export function referenceText(method: MethodDoc): string {
  return [method.decided, method.description, method.published].filter(Boolean).join(" ");
}

/** The input as a client sends it: JSON Schema of the schema's input side. */
export function inputJsonSchema(method: MethodDefinition): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(method.input, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return schema;
}

export function methodDoc(method: MethodDefinition): MethodDoc {
  const [group = "", name = ""] = method.name.split("/");
  const inputSchema = inputJsonSchema(method);
  return {
    name: method.name,
    group,
    method: name,
    path: methodPath(method.name),
    kind: method.access === "machine" ? "machine" : method.kind,
    authorization: authorizationOf(method),
    module: method.module,
    phase: method.phase,
    status: method.status,
    summary: method.summary,
    decided: decidedSentence(method),
    description: method.description,
    publishes: (method.publishes ?? []).map((event) => (typeof event === "string" ? event : event.type)),
    published: publishedSentence(method.publishes ?? []),
    inputSchema,
    fields: fieldRows(inputSchema),
    definition: method,
  };
}

/** Every group the registry serves, in the reference's order, each with its methods in registry order. */
export function groupDocs(): GroupDoc[] {
  const groups = new Map<string, MethodDoc[]>();
  for (const method of METHODS.map(methodDoc)) groups.set(method.group, [...(groups.get(method.group) ?? []), method]);
  const rank = (name: string) => (GROUP_ORDER.includes(name) ? GROUP_ORDER.indexOf(name) : GROUP_ORDER.length);
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([name, methods]) => ({ name, description: METHOD_GROUPS[name] ?? "", methods }));
}

/** "All 3 methods are served by this release." (or how many of them are) */
export function servedSentence(group: GroupDoc): string {
  const served = group.methods.filter((method) => method.status === "registered").length;
  const total = group.methods.length;
  const noun = total === 1 ? "method" : "methods";
  if (total === 1) return served === 1 ? "Its one method is served by this release." : "Its one method is not served by this release yet.";
  return served === total
    ? `All ${total} ${noun} are served by this release.`
    : `${served} of ${total} ${noun} are served by this release.`;
}
