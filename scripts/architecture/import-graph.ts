// The project's import graph, read from its own sources with the TypeScript
// compiler's pre-processor (imports, re-exports and dynamic imports; no type
// checking), so the layering rules in layers.test.ts and a reader asking
// "what imports what" see the same arrows.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export const SOURCE_ROOTS = ["app", "components", "data", "lib", "server", "scripts", "bench", "e2e", "test"];
const EXTENSIONS = [".ts", ".tsx", ".mts", ".mjs", ".js"];
const SKIPPED = new Set(["node_modules", ".next", "generated", "results"]);

export interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
}

export function isTestFile(file: string): boolean {
  return /\.(test|spec)\.tsx?$/.test(file);
}

function listSources(root: string, folder: string): string[] {
  const full = path.join(root, folder);
  if (!existsSync(full)) return [];
  const files: string[] = [];
  for (const name of readdirSync(full)) {
    if (SKIPPED.has(name)) continue;
    const relative = path.posix.join(folder, name);
    if (statSync(path.join(root, relative)).isDirectory()) files.push(...listSources(root, relative));
    else if (EXTENSIONS.includes(path.extname(name))) files.push(relative);
  }
  return files;
}

function resolveSpecifier(root: string, from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = path.posix.join(path.posix.dirname(from), specifier);
  else return null;
  const candidates = [base, ...EXTENSIONS.map((ext) => base + ext), ...EXTENSIONS.map((ext) => `${base}/index${ext}`)];
  for (const candidate of candidates) {
    const full = path.join(root, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  return null;
}

// `import type { X }` and `export type { X }` vanish at build time; the layering
// rules treat them apart (components may name a type they render).
const TYPE_ONLY = /^\s*(import|export)\s+type\s/;

export function readImportGraph(root: string, roots: string[] = SOURCE_ROOTS): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of roots.flatMap((folder) => listSources(root, folder))) {
    const text = readFileSync(path.join(root, file), "utf8");
    const { importedFiles } = ts.preProcessFile(text, true, true);
    for (const imported of importedFiles) {
      const to = resolveSpecifier(root, file, imported.fileName);
      if (!to || to === file) continue;
      const line = text.slice(0, imported.pos).split("\n").length - 1;
      const statementStart =
        text
          .split("\n")
          .slice(0, line + 1)
          .reverse()
          .find((l) => /^\s*(import|export)\b/.test(l)) ?? "";
      edges.push({ from: file, to, typeOnly: TYPE_ONLY.test(statementStart) });
    }
  }
  return edges;
}

/** The folder a file sits in, cut to `depth` segments (depth 1: "server", 2: "server/auth"). */
export function folderOf(file: string, depth: number): string {
  const parts = path.posix.dirname(file).split("/");
  return parts.slice(0, depth).join("/");
}

/** Strongly connected groups of more than one node (Tarjan), each sorted. */
export function findCircles(edges: Array<[string, string]>): string[][] {
  const next = new Map<string, Set<string>>();
  for (const [from, to] of edges) {
    if (from === to) continue;
    if (!next.has(from)) next.set(from, new Set());
    if (!next.has(to)) next.set(to, new Set());
    next.get(from)!.add(to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) circles.push(group.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return circles;
}
