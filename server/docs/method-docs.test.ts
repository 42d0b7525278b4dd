import { describe, expect, it } from "vitest";
import { METHODS } from "../methods/registry";
import { PART_A_INTRO, PART_A_SENTENCES } from "@/test/docs/part-a-reference";
import { groupDocs, referenceText, servedSentence } from "./method-docs";
import { openApiDocument } from "./openapi-document";

// The joinRequests reference, generated from the registry, holds exactly
// SPEC Part A's published tables.
const TENANT = ["tenantId", "string", "yes", "at most 128 characters; matches `^[A-Za-z0-9._:-]{1,128}$`"];
const POOL = ["poolId", "string", "yes", "at most 128 characters; matches `^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`"];
const REQUEST = ["requestId", "string", "yes", "at most 64 characters; matches `^jreq_[0-9a-hjkmnp-tv-z]{26,52}$`"];
const REASON = ["reason", "string", "", "at most 256 characters; matches `^[^\\u0000-\\u001f\\u007f]*$`"];

const PART_A: Record<string, string[][]> = {
  list: [
    TENANT,
    POOL,
    ["state", "one of `pending`, `approved`, `rejected`, `expired`, `consumed`, `all`", 'default "pending"', ""],
    ["limit", "integer", "", "1-200; default 100"],
    ["cursor", "string", "", "at most 64 characters; matches `^jreq_[0-9a-hjkmnp-tv-z]{26,52}$`"],
  ],
  approve: [TENANT, POOL, REQUEST, ["ttlSeconds", "integer", "", "60-86400; default 3600"], REASON],
  reject: [TENANT, POOL, REQUEST, REASON],
};

describe("the joinRequests reference (SPEC Part A)", () => {
  const group = groupDocs().find((candidate) => candidate.name === "joinRequests")!;

  it("says all three methods are served and has Part A's method table", () => {
    expect(servedSentence(group)).toBe("All 3 methods are served by this release.");
    expect(group.methods.map((method) => [method.method, method.kind, method.authorization, method.phase, method.status])).toEqual([
      ["list", "read", "`compute:join-tokens:read` @ `compute-pool`", "v0.2", "registered"],
      ["approve", "mutation", "`compute:join-tokens:create` @ `compute-pool`", "v0.2", "registered"],
      ["reject", "mutation", "`compute:join-tokens:create` @ `compute-pool`", "v0.2", "registered"],
    ]);
    expect(new Set(group.methods.map((method) => method.module))).toEqual(new Set(["server"]));
  });

  it.each(Object.keys(PART_A))("%s: the input table's fields, types, required marks and constraints", (name) => {
    const method = group.methods.find((candidate) => candidate.method === name)!;
    expect(method.path).toBe(`/api/compute/joinRequests/${name}`);
    expect(method.fields.map((row) => [row.field, row.type, row.required, row.constraints])).toEqual(PART_A[name]);
  });

  it("opens with Part A's sentences whole", () => {
    const opening = `${group.description} ${servedSentence(group)}`;
    for (const sentence of PART_A_INTRO) expect(opening.includes(sentence), sentence).toBe(true);
  });

  it.each(Object.keys(PART_A_SENTENCES))("%s: the page and the OpenAPI operation carry every Part A sentence whole", (name) => {
    const method = group.methods.find((candidate) => candidate.method === name)!;
    const page = `${method.summary} ${referenceText(method)}`;
    const operation = (openApiDocument().paths[method.path] as { post: { summary: string; description: string } }).post;
    const published = `${operation.summary}\n\n${operation.description}`;
    for (const sentence of PART_A_SENTENCES[name as keyof typeof PART_A_SENTENCES]) {
      expect(page.includes(sentence), `page: ${sentence}`).toBe(true);
      expect(published.includes(sentence), `OpenAPI: ${sentence}`).toBe(true);
    }
  });

  it("names what approve and reject publish", () => {
    expect(group.methods.find((method) => method.method === "approve")!.publishes).toEqual(["security.join-request.approved"]);
    expect(group.methods.find((method) => method.method === "reject")!.publishes).toEqual(["security.join-request.rejected"]);
  });
});

describe("every registered method has a page", () => {
  it("walks the registry: each method is in exactly one group's page", () => {
    const documented = groupDocs().flatMap((group) => group.methods.map((method) => method.name));
    expect(documented.sort()).toEqual(METHODS.map((method) => method.name).sort());
    for (const group of groupDocs()) expect(group.description, group.name).not.toBe("");
  });
});
