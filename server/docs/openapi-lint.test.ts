import { createConfig, lintFromString } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi-document";

// An independent linter (Redocly's own rules, "recommended" set) over the
// generated document: every error and every warning fails, each printed as
// "rule at pointer: message" so a failure says what to fix.
describe("the OpenAPI document under Redocly's recommended rules", () => {
  it("has no error and no warning", async () => {
    const problems = await lintFromString({
      source: JSON.stringify(openApiDocument()),
      absoluteRef: "openapi.json",
      // info-license off: the project is private and has chosen no licence; naming
      // one to quiet a linter would be a claim nobody made.
      config: await createConfig({ extends: ["recommended"], rules: { "info-license": "off" } }),
    });
    const found = problems.map(
      (problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer ?? "#"}: ${problem.message}`,
    );
    expect(found).toEqual([]);
  });
});
