import { beforeAll, describe, expect, it } from "vitest";
import { callMethod, expectError, type ApiResponse } from "@/test/api/api-client";
import { createWorld, makeRequest, storedRequest, type World } from "@/test/api/world";

// SPEC Part A field tables and B2 "Input rules": every violation is
// 400 INVALID_ARGUMENT naming the field, in `details` and in the message.
let world: World;
beforeAll(async () => {
  world = await createWorld();
});

type Method = "joinRequests/list" | "joinRequests/approve" | "joinRequests/reject" | "events/list";
const METHODS: Method[] = ["joinRequests/list", "joinRequests/approve", "joinRequests/reject", "events/list"];
const DECISIONS: Method[] = ["joinRequests/approve", "joinRequests/reject"];
const LISTS: Method[] = ["joinRequests/list", "events/list"];

const ULID = "01arz3ndektsv4rrffq69g5fav"; // 26 lowercase Crockford base32 characters
const JREQ = `jreq_${ULID}`;
const EMOJI = "\u{1F600}"; // one code point, two UTF-16 units

// Placeholders resolved once the world exists (tables are built before beforeAll runs).
const TENANT = Symbol("tenant");
const POOL = Symbol("pool");

function baseBody(method: Method): Record<string, unknown> {
  const body: Record<string, unknown> = { tenantId: TENANT, poolId: POOL };
  if (DECISIONS.includes(method)) body.requestId = JREQ;
  return body;
}
const requiredFields = (method: Method) => Object.keys(baseBody(method));

function resolve(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => [key, value === TENANT ? world.tenantId : value === POOL ? world.pools.a : value]),
  );
}

const send = (method: Method, body: Record<string, unknown>) => callMethod(method, resolve(body), { bearer: world.keys.admin });

/** 400 INVALID_ARGUMENT with a detail naming `field` (or an element of it, "types.1"), and a message naming it. */
function expectViolation(response: ApiResponse, field: string): void {
  expectError(response, 400, "INVALID_ARGUMENT");
  const fields: string[] = (response.body.error.details ?? []).map((detail: { field: string }) => detail.field);
  expect(
    fields.some((name) => name === field || name.startsWith(`${field}.`)),
    `details name ${field}: ${response.text}`,
  ).toBe(true);
  expect(response.body.error.message).toContain(field);
}

type Row = [label: string, method: Method, body: Record<string, unknown>, field: string];

const set = (method: Method, field: string, value: unknown): Record<string, unknown> => ({ ...baseBody(method), [field]: value });
const without = (method: Method, field: string) => {
  const { [field]: _, ...rest } = baseBody(method);
  return rest;
};
/** One row per method × value of a field. */
const rows = (methods: Method[], field: string, values: [string, unknown][]): Row[] =>
  methods.flatMap((method) => values.map(([label, value]): Row => [`${field} ${label}`, method, set(method, field, value), field]));

const WRONG_TYPES_FOR_STRING: [string, unknown][] = [
  ["a number", 42],
  ["a boolean", true],
  ["an array", ["x"]],
  ["an object", { value: "x" }],
];
const WRONG_INTEGERS: [string, unknown][] = [
  ["a numeric string", "3600"],
  ["a fraction", 60.5],
  ["a boolean", true],
  ["an array", [100]],
  ["an object", { value: 100 }],
];
const BAD_JREQ_IDS: [string, unknown][] = [
  ["uppercase", `jreq_${ULID.toUpperCase()}`],
  ["with u", `jreq_${ULID.slice(0, 25)}u`],
  ["with i", `jreq_${ULID.slice(0, 25)}i`],
  ["with l", `jreq_${ULID.slice(0, 25)}l`],
  ["with o", `jreq_${ULID.slice(0, 25)}o`],
  ["of 25 characters", `jreq_${ULID.slice(0, 25)}`],
  ["of 53 characters", `jreq_${ULID}${ULID}0`],
  ["over 64 characters", `jreq_${ULID}${ULID}${ULID}`],
  ["with another prefix", `evt_${ULID}`],
  ["with a dash", `jreq-${ULID}`],
  ["empty", ""],
];

const requiredRows: Row[] = METHODS.flatMap((method) =>
  requiredFields(method).flatMap((field): Row[] => [
    [`${field} missing`, method, without(method, field), field],
    [`${field} null (required)`, method, set(method, field, null), field],
    ...WRONG_TYPES_FOR_STRING.map(([label, value]): Row => [`${field} ${label}`, method, set(method, field, value), field]),
  ]),
);

const patternRows: Row[] = [
  ...rows(METHODS, "tenantId", [
    ["empty", ""],
    ["of 129 characters", "t".repeat(129)],
    ["with a slash", "acme/evil"],
    ["with a space", "ac me"],
    ["with a non-ASCII letter", "t\u00e9nant"],
  ]),
  ...rows(METHODS, "poolId", [
    ["empty", ""],
    ["starting with -", "-pool"],
    ["starting with .", ".pool"],
    ["starting with :", ":pool"],
    ["of 129 characters", "p".repeat(129)],
    ["with a slash", "gpu/a"],
    ["with a space", "gpu a"],
  ]),
  ...rows(DECISIONS, "requestId", BAD_JREQ_IDS),
  ...rows(["joinRequests/list"], "cursor", [...BAD_JREQ_IDS, ...WRONG_TYPES_FOR_STRING]),
  ...rows(["events/list"], "after", [
    ["with the jreq prefix", JREQ],
    ["uppercase", `evt_${ULID.toUpperCase()}`],
    ["with o", `evt_${ULID.slice(0, 25)}o`],
    ["of 25 characters", `evt_${ULID.slice(0, 25)}`],
    ["over 64 characters", `evt_${ULID}${ULID}${ULID}`],
    ...WRONG_TYPES_FOR_STRING,
  ]),
];

const numberRows: Row[] = [
  ...rows(LISTS, "limit", [...WRONG_INTEGERS, ["0", 0], ["201", 201], ["-1", -1]]),
  ...rows(["joinRequests/approve"], "ttlSeconds", [...WRONG_INTEGERS, ["59", 59], ["86401", 86_401], ["0", 0], ["-3600", -3600]]),
];

const reasonRows: Row[] = rows(DECISIONS, "reason", [
  ["of 257 emoji code points", EMOJI.repeat(257)],
  ["of 257 ASCII characters", "r".repeat(257)],
  ["with \\u0000", "a\u0000b"],
  ["with \\n", "line\nbreak"],
  ["with \\t", "tab\there"],
  ["with \\u001f", "a\u001fb"],
  ["with \\u007f", "a\u007fb"],
  ...WRONG_TYPES_FOR_STRING,
]);

const enumRows: Row[] = [
  ...rows(["joinRequests/list"], "state", [
    ["not in the enum", "bogus"],
    ["in another case", "PENDING"],
    ["empty", ""],
    ...WRONG_TYPES_FOR_STRING,
  ]),
  ...rows(["events/list"], "types", [
    ["a string, not an array", "security.join-request.created"],
    ["with an unknown type", ["security.join-request.created", "security.join-request.bogus"]],
    ["with a number", [1]],
    ["with null", [null]],
    ["an object", { type: "security.join-request.created" }],
    ["a boolean", true],
  ]),
];

const unknownFieldRows: Row[] = METHODS.map((method): Row => ["an unknown field", method, set(method, "colour", "blue"), "colour"]);

describe("a field that breaks its rule is 400 INVALID_ARGUMENT naming it (B2 input rules)", () => {
  describe("required fields", () => {
    it.each(requiredRows)("%s → %s", async (_, method, body, field) => expectViolation(await send(method, body), field));
  });
  describe("patterns and length limits", () => {
    it.each(patternRows)("%s → %s", async (_, method, body, field) => expectViolation(await send(method, body), field));
  });
  describe("integers: no coercion, no fractions, in range", () => {
    it.each(numberRows)("%s → %s", async (_, method, body, field) => expectViolation(await send(method, body), field));
  });
  describe("reason: at most 256 code points, no control characters", () => {
    it.each(reasonRows)("%s → %s", async (_, method, body, field) => expectViolation(await send(method, body), field));
  });
  describe("enums", () => {
    it.each(enumRows)("%s → %s", async (_, method, body, field) => expectViolation(await send(method, body), field));
  });
  describe("unknown fields", () => {
    it.each(unknownFieldRows)("%s → %s", async (_, method, body, field) => expectViolation(await send(method, body), field));

    it.each(METHODS)("names every unknown field: %s", async (method) => {
      const response = await send(method, { ...baseBody(method), colour: "blue", size: 3 });
      expectError(response, 400, "INVALID_ARGUMENT");
      const fields = response.body.error.details.map((detail: { field: string }) => detail.field);
      expect(fields).toEqual(expect.arrayContaining(["colour", "size"]));
    });
  });
});

describe("the body must be one JSON object (B2)", () => {
  const BODIES: [string, string][] = [
    ["not JSON", "{tenantId:"],
    ["form-encoded", "tenantId=acme&poolId=gpu-a"],
    ["a JSON array", "[]"],
    ["a JSON array of an object", '[{"tenantId":"acme","poolId":"gpu-a"}]'],
    ["a JSON string", '"acme"'],
    ["JSON null", "null"],
    ["a JSON number", "42"],
    ["JSON true", "true"],
    ["empty", ""],
    ["whitespace", "  \n"],
  ];
  const cases = METHODS.flatMap((method) => BODIES.map(([label, raw]) => [method, label, raw] as const));

  it.each(cases)("%s: a body that is %s → 400 INVALID_ARGUMENT", async (method, _, rawBody) => {
    const response = await callMethod(method, undefined, { bearer: world.keys.admin, rawBody });
    expectError(response, 400, "INVALID_ARGUMENT");
  });
});

describe("values at the edge of a rule are accepted", () => {
  const decide = (method: Method, body: Record<string, unknown>) =>
    callMethod(method, { tenantId: world.tenantId, poolId: world.pools.a, ...body }, { bearer: world.keys.admin });

  it.each(DECISIONS)("%s: a reason of 256 emoji code points (512 UTF-16 units) is accepted and stored whole", async (method) => {
    const id = await makeRequest(world, { poolId: world.pools.a });
    const reason = EMOJI.repeat(256);
    expect(reason.length).toBe(512);
    const response = await decide(method, { requestId: id, reason });
    expect(response.status, response.text).toBe(200);
    expect(response.body.reason).toBe(reason);
    expect((await storedRequest(id)).reason).toBe(reason);
  });

  it.each(DECISIONS)("%s: a reason with printable Unicode and spaces is accepted", async (method) => {
    const id = await makeRequest(world, { poolId: world.pools.a });
    const response = await decide(method, { requestId: id, reason: "Grüße — ticket #42, 東京" });
    expect(response.status, response.text).toBe(200);
  });

  it.each([
    ["joinRequests/list", { limit: 1 }],
    ["joinRequests/list", { limit: 200 }],
    ["events/list", { limit: 1 }],
    ["events/list", { limit: 200 }],
    ["events/list", { types: [] }],
    ["joinRequests/list", { cursor: `jreq_${ULID}${ULID}` }], // 52 characters
    ["events/list", { after: `evt_${ULID}${ULID}` }],
  ] as [Method, Record<string, unknown>][])("%s accepts %j", async (method, body) => {
    const response = await send(method, { ...baseBody(method), ...body });
    expect(response.status, response.text).toBe(200);
  });

  it.each([
    ["joinRequests/list", { state: null, limit: null, cursor: null }],
    ["events/list", { types: null, after: null, limit: null }],
  ] as [Method, Record<string, unknown>][])("%s: null optional fields mean the defaults, as if omitted", async (method, nulls) => {
    await makeRequest(world, { poolId: world.pools.a });
    const omitted = await send(method, baseBody(method));
    const withNulls = await send(method, { ...baseBody(method), ...nulls });
    expect(withNulls.status).toBe(200);
    expect(withNulls.body).toEqual(omitted.body);
  });

  it("a tenantId of 128 characters passes validation (then fails authorization: 403, not 400)", async () => {
    const response = await send("joinRequests/list", set("joinRequests/list", "tenantId", "t".repeat(128)));
    expectError(response, 403, "PERMISSION_DENIED");
  });

  it("a poolId of 128 characters passes validation (then is not found: 404, not 400)", async () => {
    const response = await send("joinRequests/list", set("joinRequests/list", "poolId", `p${"-".repeat(127)}`));
    expectError(response, 404, "NOT_FOUND");
  });

  it("a requestId of 52 ULID characters passes validation (then is not found: 404, not 400)", async () => {
    const response = await send("joinRequests/approve", set("joinRequests/approve", "requestId", `jreq_${ULID}${ULID}`));
    expectError(response, 404, "NOT_FOUND");
  });
});
