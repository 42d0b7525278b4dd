import { jsonResponse, newRequestId } from "@/server/api/responses";
import { checkReadiness } from "@/server/health/check-readiness";
import { readinessSources } from "@/server/health/readiness-sources";
import { log } from "@/server/log";

// Readiness, for load balancers and orchestrators: 200 when this process can
// serve (the database answers, every migration is applied, the configuration
// is complete), else 503 with Retry-After and what is wrong by name.
// Liveness (the process is up at all) is /api/health/live.
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const { ready, checks } = await checkReadiness(readinessSources);
  const requestId = newRequestId();
  if (ready) return jsonResponse(200, { status: "ok", checks }, requestId);
  log.warn("not ready", { requestId, checks });
  return jsonResponse(503, { status: "unavailable", checks }, requestId, { "retry-after": "5" });
}
