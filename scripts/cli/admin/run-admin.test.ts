import { describe, expect, it } from "vitest";
import { adminUsage, NOUN_FILES, runAdmin } from "./run-admin";
import { UsageError } from "../shared/run-cli";

// Dispatch finds a noun by its key in NOUN_FILES and loads only that file;
// the usage names each noun by its own `name`. They must be the same word.
describe("the admin CLI's nouns", () => {
  it("each noun's file holds the noun its key names", async () => {
    for (const [key, load] of Object.entries(NOUN_FILES)) expect((await load()).name, key).toBe(key);
  });

  it("--help and a wrong noun print every noun with its verbs", async () => {
    const usage = await adminUsage();
    for (const key of Object.keys(NOUN_FILES)) expect(usage).toMatch(new RegExp(`^  ${key} +\\S`, "m"));
    expect(usage).toContain("tenants         create|list");
    const printed: string[] = [];
    await runAdmin(["--help"], { print: (line) => printed.push(line), readStdin: async () => "" });
    expect(printed).toEqual([usage]);
    const wrong = await runAdmin(["frobs", "list"], { print: () => undefined, readStdin: async () => "" }).catch((error: unknown) => error);
    expect(wrong).toBeInstanceOf(UsageError);
    expect(wrong).toMatchObject({ message: "unknown noun frobs", usage });
  });

  it("a verb of two words is found in the noun it was given", async () => {
    const printed: string[] = [];
    await runAdmin(["tpm", "trust-ca", "add", "--help"], { print: (line) => printed.push(line), readStdin: async () => "" });
    expect(printed.join("\n")).toContain("npm run admin -- tpm trust-ca add");
  });
});
