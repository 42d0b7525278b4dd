import "server-only";
import { listEventsResponse } from "@/lib/api/responses/events";
import { listEventsInput } from "@/lib/validations/events";
import { listEvents } from "../events/list-events";
import { definePoolMethod } from "./define-method";

// SPEC B6: reading what the join requests published.
export const listEventsMethod = definePoolMethod({
  name: "events/list",
  responses: { 200: listEventsResponse },
  kind: "read",
  permission: "compute:join-tokens:read",
  resource: "compute-pool",
  phase: "v0.2",
  status: "registered",
  module: "server",
  summary: "Lists the events of the requests a pool owns and of its site's unclaimed requests.",
  input: listEventsInput,
  handler: ({ db, pool, input }) =>
    listEvents({ db, pool, types: input.types, after: input.after, requestId: input.requestId, limit: input.limit }),
});
