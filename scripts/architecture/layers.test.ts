// The layout's rules, read from the imports themselves: no folder imports a
// folder that imports it back (at any depth), no file circles, and each
// top-level folder reaches only the layers below it. A newcomer can then
// read the code from lib/ upward without meeting anything twice.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findCircles, folderOf, isTestFile, readImportGraph } from "./import-graph";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const edges = readImportGraph(root).filter((edge) => !isTestFile(edge.from));

// Who may import whom at the top: lib/ is the floor both the browser and the
// server stand on; components/ and data/ never reach into server/ (not even for
// a type: a type the console renders is a wire type and lives in lib/).
const MAY_IMPORT: Record<string, string[]> = {
  lib: [],
  data: ["lib"],
  components: ["data", "lib"],
  server: ["lib"],
  app: ["components", "data", "lib", "server"],
  test: ["lib", "server"],
  scripts: ["lib", "server", "test"],
  bench: ["lib", "server", "scripts", "test"],
  e2e: ["docs", "lib", "server", "scripts", "test"],
};

function describeEdges(from: string[], depth: number): string[] {
  return edges
    .filter((edge) => {
      const a = folderOf(edge.from, depth);
      const b = folderOf(edge.to, depth);
      return a !== b && from.includes(a) && from.includes(b);
    })
    .map((edge) => `${edge.from} -> ${edge.to}`);
}

describe("the import graph", () => {
  it("reads the arrows it should (a known import is seen)", () => {
    expect(edges).toContainEqual(expect.objectContaining({ from: "server/db/client.ts", to: "server/env.ts" }));
  });

  for (const depth of [1, 2, 3, 4]) {
    it(`has no folder circle at depth ${depth}`, () => {
      const folderEdges = edges.map((edge): [string, string] => [folderOf(edge.from, depth), folderOf(edge.to, depth)]);
      const circles = findCircles(folderEdges);
      expect(circles.map((circle) => ({ circle, through: describeEdges(circle, depth) }))).toEqual([]);
    });
  }

  it("has no file circle", () => {
    expect(findCircles(edges.map((edge): [string, string] => [edge.from, edge.to]))).toEqual([]);
  });

  it("keeps each top-level folder to the layers below it", () => {
    const wrong = edges
      .filter((edge) => {
        const from = edge.from.split("/")[0]!;
        const to = edge.to.split("/")[0]!;
        // A file at the root (prisma.config.ts) is configuration, not a layer.
        if (from === to || !(from in MAY_IMPORT) || !edge.to.includes("/")) return false;
        return !MAY_IMPORT[from]!.includes(to);
      })
      .map((edge) => `${edge.from} -> ${edge.to}`);
    expect(wrong).toEqual([]);
  });
});

describe("findCircles", () => {
  it("finds a loop and leaves a chain alone", () => {
    expect(
      findCircles([
        ["a", "b"],
        ["b", "c"],
        ["c", "a"],
        ["c", "d"],
      ]),
    ).toEqual([["a", "b", "c"]]);
    expect(
      findCircles([
        ["a", "b"],
        ["b", "c"],
      ]),
    ).toEqual([]);
  });
});
