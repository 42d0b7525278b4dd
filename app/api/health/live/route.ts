import { jsonResponse, newRequestId } from "@/server/api/responses";

// Liveness: the process answers HTTP. Nothing else is checked, so an
// orchestrator restarts a process only when it is truly stuck, never because
// the database is away (that is readiness: /api/health).
export const dynamic = "force-dynamic";

export function GET(): Response {
  return jsonResponse(200, { status: "live" }, newRequestId());
}
