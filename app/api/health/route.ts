import { errorResponse, jsonResponse, newRequestId } from "@/server/api/responses";
import { getDb } from "@/server/db/client";

// Liveness and readiness: 200 when the database answers, 503 when it does not.
export async function GET() {
  const requestId = newRequestId();
  try {
    const db = await getDb();
    await db.$queryRaw`SELECT 1`;
    return jsonResponse(200, { status: "ok" }, requestId);
  } catch (error) {
    return errorResponse(error, requestId);
  }
}
