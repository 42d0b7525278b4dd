import type { Grant } from "./roles";

/** Who is calling: a service key or a signed-in user, with their grants. */
export interface Principal {
  kind: "service-key" | "user";
  /** Recorded as `decidedBy` and as the events' actor: `bcsk_<id>` or `usr_…`. */
  id: string;
  grants: Grant[];
}
