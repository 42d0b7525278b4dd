import { CelScalar, mapType } from "@bufbuild/cel";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { LazyFields, type FieldMakers } from "./lazy-fields";
import { MAX_MAC_ADDRESSES } from "@/lib/validations/node-join";
import { MAX_APPROVALS_REQUIRED } from "@/lib/validations/pools";

// SPEC H2: the variables a rule's expression reads, declared once: the static
// check (check-expression.ts) reads their shapes, evaluation their bindings.

/** A declared type: a scalar, a list (with the most elements it can hold), an object, or nullable. */
export type Shape =
  | { kind: "scalar"; name: "string" | "bool" | "int" | "uint" | "double" | "timestamp" | "duration" | "bytes" | "null" | "dyn" }
  | { kind: "list"; element: Shape; maxLength: number }
  | { kind: "object"; name: string; fields: Record<string, Shape> }
  | { kind: "nullable"; of: Shape };

const scalar = (name: Extract<Shape, { kind: "scalar" }>["name"]): Shape => ({ kind: "scalar", name });
const nullable = (of: Shape): Shape => ({ kind: "nullable", of });
const list = (element: Shape, maxLength: number): Shape => ({ kind: "list", element, maxLength });
const object = (name: string, fields: Record<string, Shape>): Shape => ({ kind: "object", name, fields });

export const STRING = scalar("string");
export const BOOL = scalar("bool");
export const INT = scalar("int");
export const DYN = scalar("dyn");
export const TIMESTAMP = scalar("timestamp");

const machine = object("request.machine", {
  hostname: STRING,
  systemUuid: STRING,
  serialNumber: STRING,
  macAddresses: list(STRING, MAX_MAC_ADDRESSES),
  tpmEkSha256: nullable(STRING),
  tpmEkProven: BOOL,
});

const approval = object("approval", { by: STRING, at: TIMESTAMP, ttlSeconds: INT });

/** SPEC I1: what the join's EK certificate said (failure null: it chained to the tenant's trust store). */
const ekCertificate = nullable(
  object("request.ekCertificate", { issuer: STRING, serial: STRING, failure: nullable(STRING), detail: nullable(STRING) }),
);

/** SPEC I2: what the join's TPM quote attested (pcrs: index → hex; bootState null: it matched no known state). */
const bootMeasurement = nullable(object("request.bootMeasurement", { pcrs: DYN, bootState: nullable(STRING) }));

/** `request`: the request as the API returns it (timestamps as CEL timestamps), its credential and whether its TPM was proven. */
export const REQUEST_SHAPE = object("request", {
  id: STRING,
  tenantId: STRING,
  siteId: STRING,
  poolId: nullable(STRING),
  state: STRING,
  reasons: list(STRING, 8),
  machine,
  csrSha256: STRING,
  createdAt: TIMESTAMP,
  expiresAt: TIMESTAMP,
  decidedAt: nullable(TIMESTAMP),
  decidedBy: nullable(STRING),
  reason: nullable(STRING),
  consumedAt: nullable(TIMESTAMP),
  approvalsRequired: INT,
  approvals: list(approval, MAX_APPROVALS_REQUIRED),
  ekCertificate,
  bootMeasurement,
  credential: object("request.credential", { kind: STRING, id: STRING }),
  tpmProven: BOOL,
});

/** `discovery`: the matched discovered-machine entry, or null. */
export const DISCOVERY_SHAPE = nullable(
  object("discovery", { systemUuid: STRING, macAddresses: list(STRING, MAX_MAC_ADDRESSES), assignedPoolId: nullable(STRING) }),
);

export const VARIABLES: Record<string, Shape> = { request: REQUEST_SHAPE, discovery: DISCOVERY_SHAPE, now: TIMESTAMP };

/** The variables as the CEL environment declares them (their fields are checked by check-expression.ts). */
export const CEL_VARIABLES = {
  request: mapType(CelScalar.STRING, CelScalar.DYN),
  discovery: CelScalar.DYN,
  now: CelScalar.DYN,
} as const;

/** What a rule is evaluated against. */
export interface RuleSubject {
  request: JoinRequestJson;
  credential: { kind: "join-token" | "enrollment-key"; id: string };
  discovery: { systemUuid: string; macAddresses: string[]; assignedPoolId: string | null } | null;
  now: Date;
}

const celTimestamp = (value: string | null) => (value === null ? null : timestampFromDate(new Date(value)));

/** `request`'s fields as CEL reads them: the API's JSON with integers as CEL ints (bigint) and timestamps as CEL timestamps. */
const REQUEST_FIELDS: FieldMakers<RuleSubject> = {
  id: ({ request }) => request.id,
  tenantId: ({ request }) => request.tenantId,
  siteId: ({ request }) => request.siteId,
  poolId: ({ request }) => request.poolId,
  state: ({ request }) => request.state,
  reasons: ({ request }) => request.reasons,
  machine: ({ request }) => request.machine,
  csrSha256: ({ request }) => request.csrSha256,
  createdAt: ({ request }) => celTimestamp(request.createdAt),
  expiresAt: ({ request }) => celTimestamp(request.expiresAt),
  decidedAt: ({ request }) => celTimestamp(request.decidedAt),
  decidedBy: ({ request }) => request.decidedBy,
  reason: ({ request }) => request.reason,
  consumedAt: ({ request }) => celTimestamp(request.consumedAt),
  approvalsRequired: ({ request }) => BigInt(request.approvalsRequired),
  approvals: ({ request }) =>
    request.approvals.map((each) => ({ by: each.by, at: celTimestamp(each.at)!, ttlSeconds: BigInt(each.ttlSeconds) })),
  ekCertificate: ({ request }) => request.ekCertificate,
  bootMeasurement: ({ request }) => request.bootMeasurement,
  credential: (subject) => subject.credential,
  tpmProven: ({ request }) => request.machine.tpmEkProven,
};

/** The CEL bindings of a subject, each value made only when the expression reads it (lazy-fields.ts). */
export function ruleBindings(subject: RuleSubject) {
  return {
    request: new LazyFields(subject, REQUEST_FIELDS),
    discovery: subject.discovery,
    get now() {
      return timestampFromDate(subject.now);
    },
  };
}
