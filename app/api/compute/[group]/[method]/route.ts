import { methodNotAllowed, serveMethod } from "@/server/methods/serve-method";

// Every published method is served from the registry (server/methods/registry.ts).
export async function POST(request: Request, context: { params: Promise<{ group: string; method: string }> }) {
  const { group, method } = await context.params;
  return serveMethod(request, `${group}/${method}`);
}

export const GET = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
export const OPTIONS = methodNotAllowed;
