import "server-only";
import pg from "pg";
import { newId } from "@/lib/ids";
import { withMethodSecurityHeaders } from "../api/method-security-headers";
import { tokenMatches } from "../auth/credentials";
import { env } from "../env";
import { answerFloor } from "./answer-floor";

// The Next.js floor (issue #38): the HTTP floor's handlers (answer-floor.ts)
// mounted unchanged in a route handler of this app — the same build, the same
// `npm start`, outside proxy.ts's matcher — so `npm run bench` can tell the
// framework's cost from ours. It serves only calls that carry
// BC_BENCH_FLOOR_TOKEN (which the bench makes up for each run) in
// `x-bench-floor`; in any deployment (the token unset) every call is a 404,
// as if there were no such route: the floor checks a service key and a grant
// but skips the published methods' input schemas, so it must never be reachable.

const state = globalThis as typeof globalThis & { __betterComputeFloorDb?: pg.Pool };

/** Its own pg pool, as each HTTP floor process has (BC_DB_POOL_MAX connections). */
function floorDb(): pg.Pool {
  state.__betterComputeFloorDb ??= new pg.Pool({ connectionString: env().DATABASE_URL, max: env().BC_DB_POOL_MAX });
  return state.__betterComputeFloorDb;
}

/** Whether this call may reach the floor: the token is set and the call carries it (compared in constant time). */
export function floorAllowed(presented: string | null, token: string | undefined): boolean {
  if (!token || presented === null) return false;
  return tokenMatches(presented, token);
}

const NOT_FOUND = JSON.stringify({ error: { code: "NOT_FOUND", message: "not found" } });

/** POST /api/compute/bench-floor/<group>.<method>: the floor's answer, or 404. */
export async function serveBenchFloor(request: Request, method: string): Promise<Response> {
  const headers = { "content-type": "application/json", "cache-control": "no-store" };
  // the deployment's answer: a method path's 404 with a method's headers (proxy.ts does not run here)
  if (!floorAllowed(request.headers.get("x-bench-floor"), env().BC_BENCH_FLOOR_TOKEN))
    return withMethodSecurityHeaders(request, new Response(NOT_FOUND, { status: 404, headers }));
  const path = `/api/compute/${method.replace(".", "/")}`;
  const answer = await answerFloor(floorDb(), path, request.headers.get("authorization") ?? undefined, await request.text());
  return new Response(answer.body, { status: answer.status, headers: { ...headers, "x-request-id": newId("req") } });
}
