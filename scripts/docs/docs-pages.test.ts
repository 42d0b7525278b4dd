import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/server/env";
import { METHODS } from "@/server/methods/registry";
import { deploymentBlock } from "@/test/browser/deployment-blocks";

// The README and docs/*.md against the code they describe: the configuration
// table names exactly the variables the code reads, the method table exactly the
// registry's methods, every relative link lands on a file, and the first
// deployment's marked blocks (run by e2e/browser/first-deployment.spec.ts) are there.

const PAGES = [
  "README.md",
  ...readdirSync("docs")
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const OURS = /^(BC_|NEXTAUTH_|DATABASE_)/;

/** The variables in a page's tables whose first column names them, backticked. */
function tableVariables(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const line of markdown.split("\n")) {
    const firstCell = /^\|([^|]*)\|/.exec(line)?.[1] ?? "";
    for (const [, name] of firstCell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) if (OURS.test(name!)) names.add(name!);
  }
  return names;
}

/** The keys of server/env.ts's schema, read from its source (the schema is not exported). */
function schemaVariables(): Set<string> {
  const source = readFileSync("server/env.ts", "utf8");
  const body = source.slice(source.indexOf("z.object({"), source.indexOf("\n});"));
  return new Set([...body.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map(([, name]) => name!));
}

/** The variables `npm start` (scripts/serve.mjs) reads outside the schema. */
function serveVariables(): Set<string> {
  const source = readFileSync("scripts/serve.mjs", "utf8");
  return new Set([...source.matchAll(/["'.]((?:BC|NEXTAUTH|DATABASE)_[A-Z0-9_]+)/g)].map(([, name]) => name!));
}

describe("docs/configuration.md", () => {
  const page = readFileSync("docs/configuration.md", "utf8");

  it("the source reading of the schema sees every key it defaults", () => {
    const schema = schemaVariables();
    for (const name of Object.keys(parseEnv({}))) expect(schema).toContain(name);
  });

  it("names every variable the env schema and npm start read, and no other", () => {
    const read = new Set([...schemaVariables(), ...serveVariables()]);
    expect([...tableVariables(page)].sort()).toEqual([...read].sort());
  });
});

describe("docs/api.md's method table", () => {
  const rows = readFileSync("docs/api.md", "utf8")
    .split("\n")
    .map((line) => /^\| `([a-zA-Z]+\/[a-zA-Z]+)` \| (read|mutation|machine) \| (.*) \|$/.exec(line))
    .filter((match) => match !== null);

  it("lists exactly the registry's methods", () => {
    expect(rows.map(([, name]) => name).sort()).toEqual(METHODS.map((method) => method.name).sort());
  });

  it("gives each the registry's kind and permission", () => {
    for (const [, name, kind, decided] of rows) {
      const method = METHODS.find((candidate) => candidate.name === name)!;
      const permission = (method as { permission?: string }).permission;
      if (kind !== "machine") expect({ name, kind }).toEqual({ name, kind: method.kind });
      if (permission) expect({ name, decided: decided!.startsWith(`\`${permission}\``) }).toEqual({ name, decided: true });
      // a method about the caller themselves has no permission: the row says who may call
      else if (method.access === "caller") expect({ name, decided: decided!.startsWith("the caller") }).toEqual({ name, decided: true });
      else expect({ name, kind }).toEqual({ name, kind: "machine" });
    }
  });
});

describe("links", () => {
  it.each(PAGES)("every relative link in %s lands on a file", (page) => {
    const markdown = readFileSync(page, "utf8").replace(/```[\s\S]*?```/g, "");
    const targets = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map(([, target]) => target!);
    const broken = targets
      .filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith("#"))
      .map((target) => target.split("#")[0]!)
      .filter((path) => !existsSync(join(dirname(page), path)));
    expect(broken).toEqual([]);
  });

  it("no page links outside the repository's tree", () => {
    for (const page of PAGES) expect(readFileSync(page, "utf8")).not.toMatch(/\]\(\.\.\/\.\.\/|\]\(\.\.\/shared/);
  });
});

describe("the first deployment's blocks", () => {
  it.each(["setup", "start", "join", "admitted"])("docs/deployment.md has the %s block", (name) => {
    expect(deploymentBlock(name).trim()).not.toBe("");
  });

  it("the start block is the one the spec expects", () => {
    expect(deploymentBlock("start").trim()).toBe("npm run build && npm start");
  });
});
