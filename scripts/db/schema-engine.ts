/**
 * Prisma's schema engine (the migration differ) in WebAssembly, driven through
 * a driver adapter: the native engine binary cannot be downloaded here.
 *
 * The Wasm module is the one the installed prisma CLI ships
 * (node_modules/prisma/build/schema_engine_bg.wasm), so the SQL we author is
 * what that CLI's engine build would author. Its JS glue comes from the
 * @prisma/schema-engine-wasm package; this pairing is how Prisma's own
 * wasmSchemaEngineLoader loads it. The exact engine build the CLI pins was
 * never published to npm, so the glue is from the nearest published build,
 * and we check that it provides every import the module needs.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { ErrorCapturingSqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";
import * as glue from "@prisma/schema-engine-wasm/schema_engine_bg";

const GLUE_MODULE_NAME = "./schema_engine_bg.js";

// wasm-bindgen glue holds a single instance; instantiating twice breaks it.
let engineClass: Promise<typeof SchemaEngine> | undefined;

export async function openSchemaEngine(
  adapter: ErrorCapturingSqlMigrationAwareDriverAdapterFactory,
  datamodels: [path: string, content: string][],
): Promise<SchemaEngine> {
  engineClass ??= instantiateCliWasm();
  const Engine = await engineClass;
  return Engine.new({ datamodels }, forwardEngineLog, adapter);
}

export function cliSchemaEngineWasmPath(): string {
  const prismaPackageJson = createRequire(import.meta.url).resolve("prisma/package.json");
  return path.join(path.dirname(prismaPackageJson), "build", "schema_engine_bg.wasm");
}

async function instantiateCliWasm(): Promise<typeof SchemaEngine> {
  const wasmPath = cliSchemaEngineWasmPath();
  const wasmModule = new WebAssembly.Module(await readFile(wasmPath));

  const provided = new Set(Object.keys(glue));
  const missing = WebAssembly.Module.imports(wasmModule).filter((entry) => entry.module !== GLUE_MODULE_NAME || !provided.has(entry.name));
  if (missing.length > 0) {
    throw new Error(
      `The schema engine ${wasmPath} needs imports that @prisma/schema-engine-wasm does not provide ` +
        `(${missing.map((entry) => `${entry.module}:${entry.name}`).join(", ")}). ` +
        `Install the @prisma/schema-engine-wasm build that matches the prisma CLI.`,
    );
  }

  const instance = new WebAssembly.Instance(wasmModule, { [GLUE_MODULE_NAME]: glue });
  glue.__wbg_set_wasm(instance.exports);
  const start = instance.exports.__wbindgen_start;
  if (typeof start === "function") start();
  return glue.SchemaEngine;
}

/** The engine logs JSON lines (tracing events); only warnings and errors are worth showing. */
function forwardEngineLog(line: string): void {
  let level: unknown;
  try {
    level = (JSON.parse(line) as { level?: unknown }).level;
  } catch {
    level = "ERROR"; // not JSON: show it as it is
  }
  if (level === "WARN" || level === "ERROR") console.error(`[schema engine] ${line}`);
}

/** A readable message for what the engine throws (Errors, Wasm panics, or `{ code, message }` objects). */
export function schemaEngineErrorMessage(error: unknown): string {
  if (error instanceof WebAssembly.RuntimeError) return `the schema engine crashed: ${error.message}`;
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null && "message" in error) {
    const { code, message } = error as { code?: unknown; message: unknown };
    return typeof code === "string" ? `${code}: ${String(message)}` : String(message);
  }
  return String(error);
}
