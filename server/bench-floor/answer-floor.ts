import type pg from "pg";
import { ApiError } from "@/server/api/errors";
import type { FloorCall } from "./floor-call";
import { approveJoinRequestFloor, listJoinRequestsFloor } from "./floor-join-requests";
import { listNodesFloor } from "./floor-list-nodes";
import { reportUnchangedFloor } from "./floor-report-inventory";

// The floors' methods (the HTTP floor's and the Next.js floor's): the app's
// statements (its own SQL builders, or one statement reading what its Prisma
// calls read), its credential and grant checks and its JSON, and nothing else: no framework, no input schema, no tracing or
// metrics. Unknown, revoked and wrong credentials get the app's 401 so that a
// mistake in the bench shows as errors, not as speed.

const METHODS: Record<string, (call: FloorCall) => Promise<unknown>> = {
  "/api/compute/joinRequests/list": listJoinRequestsFloor,
  "/api/compute/joinRequests/approve": approveJoinRequestFloor,
  "/api/compute/nodes/list": listNodesFloor,
  "/api/compute/inventory/report": reportUnchangedFloor,
};

export interface FloorAnswer {
  status: number;
  body: string;
}

export async function answerFloor(db: pg.Pool, path: string, authorization: string | undefined, text: string): Promise<FloorAnswer> {
  try {
    const method = METHODS[path];
    if (!method) throw new ApiError("NOT_FOUND", `no method ${path}`);
    return { status: 200, body: JSON.stringify(await method({ db, authorization, text, now: new Date() })) };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.httpStatus, body: JSON.stringify(error.toBody()) };
    console.error(`http floor: ${error instanceof Error ? error.stack : String(error)}`);
    return { status: 500, body: JSON.stringify(new ApiError("INTERNAL", "internal error").toBody()) };
  }
}
