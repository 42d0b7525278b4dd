import { ApiError } from "@/server/api/errors";
import { errorResponse, newRequestId } from "@/server/api/responses";

// Any other /api path answers in the API's own error envelope, not an HTML page.
function notFound(request: Request): Response {
  const { pathname } = new URL(request.url);
  return errorResponse(new ApiError("NOT_FOUND", `no API at ${pathname}`), newRequestId());
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
