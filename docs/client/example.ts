// How another service calls the control plane with a client typed from the
// published document: `npm run openapi` generates ./openapi.d.ts
// (openapi-typescript); openapi-fetch checks paths, bodies and answers against it.
// e2e/api/typed-client.test.ts compiles this file and runs it against the API.
import createClient from "openapi-fetch";
import type { components, paths } from "./openapi";

type JoinRequest = components["schemas"]["JoinRequest"];

/** The pool's pending join requests, oldest first, every page of them. */
export async function listPendingJoinRequests(options: {
  baseUrl: string;
  /** a service key, `bcsk_<id>.<secret>`, with pool-viewer or pool-admin on the pool */
  serviceKey: string;
  tenantId: string;
  poolId: string;
}): Promise<JoinRequest[]> {
  const client = createClient<paths>({ baseUrl: options.baseUrl, headers: { authorization: `Bearer ${options.serviceKey}` } });
  const requests: JoinRequest[] = [];
  let cursor: string | undefined;
  do {
    const { data, error, response } = await client.POST("/api/compute/joinRequests/list", {
      body: { tenantId: options.tenantId, poolId: options.poolId, state: "pending", cursor },
    });
    // `error` is the published error envelope (SPEC B3)
    if (!data) throw new Error(`${response.status} ${error ? `${error.error.code}: ${error.error.message}` : response.statusText}`);
    requests.push(...data.joinRequests);
    cursor = data.nextCursor;
  } while (cursor);
  return requests;
}
