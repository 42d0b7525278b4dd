import type pg from "pg";
import { approvalTargets, APPROVE_POOL, HOT } from "../workload/dataset";
import { approveBody, listBody } from "../workload/scenarios";
import { assertSameAnswer, post, type Answer, type Endpoint } from "./endpoint";

/** An approved request with what is its own (ids, times, machine) replaced, leaving what approve decides. */
function approvalShape(text: string): string {
  const body = JSON.parse(text) as Record<string, unknown>;
  const ttlMs = Date.parse(String(body.expiresAt)) - Date.parse(String(body.decidedAt));
  return JSON.stringify({
    ...body,
    id: "<id>",
    createdAt: "<t>",
    expiresAt: `<decidedAt + ${ttlMs} ms>`,
    decidedAt: "<t>",
    // each approval's time is its own too; who approved and the TTL asked for are what approve decides
    approvals: (body.approvals as Array<Record<string, unknown>>).map((approval) => ({ ...approval, at: "<t>" })),
    machine: "<m>",
    csrSha256: "<h>",
  });
}

/**
 * Before anything is measured: the HTTP floor must answer what the app
 * answers. Lists byte for byte (pending; all from a deep cursor); an approval
 * by shape (each approves its own request), the floor's by the bytes the app
 * lists for the same request afterwards, and the event each wrote.
 */
export async function checkSameAnswers(client: pg.Client, appAt: Endpoint, floorAt: Endpoint, cursor: string): Promise<void> {
  const assertSame = (what: string, app: Answer, floor: Answer) => assertSameAnswer(`${floorAt.name}, ${what}`, app, floor);
  for (const [what, body] of [
    ["list pending", listBody("pending")],
    ["list all, deep cursor", listBody("all", cursor)],
  ] as const) {
    const app = await post(appAt, "joinRequests/list", body);
    if (app.status !== 200 || JSON.parse(app.text).joinRequests.length === 0)
      throw new Error(`${floorAt.name} check, ${what}: the app answered ${app.status} ${app.text.slice(0, 200)}`);
    assertSame(what, app, await post(floorAt, "joinRequests/list", body));
  }
  const [appTarget, floorTarget] = await approvalTargets(client, 2);
  const app = await post(appAt, "joinRequests/approve", approveBody(appTarget!));
  const floor = await post(floorAt, "joinRequests/approve", approveBody(floorTarget!));
  if (app.status !== 200) throw new Error(`${floorAt.name} check, approve: the app answered ${app.status} ${app.text.slice(0, 200)}`);
  assertSame("approve (shape)", { ...app, text: approvalShape(app.text) }, { ...floor, text: approvalShape(floor.text) });
  // Earlier sizes' approve runs left thousands approved in that pool: start
  // the page just before the floor's request (the list goes by id, after the cursor).
  const { rows: before } = await client.query<{ id: string }>(
    `SELECT max(id) AS id FROM join_requests WHERE pool_id = $1 AND state = 'approved' AND id < $2`,
    [APPROVE_POOL, floorTarget],
  );
  const approved = await post(
    appAt,
    "joinRequests/list",
    JSON.stringify({ tenantId: HOT.tenantId, poolId: APPROVE_POOL, state: "approved", limit: 1, cursor: before[0]?.id ?? undefined }),
  );
  const listed = (JSON.parse(approved.text) as { joinRequests: { id: string }[] }).joinRequests.find(
    (request) => request.id === floorTarget,
  );
  if (!listed)
    throw new Error(`${floorAt.name} check, approve: the app does not list ${floorTarget} as approved: ${approved.text.slice(0, 200)}`);
  assertSame("approve (the floor's answer against the app's list of it)", { ...approved, text: JSON.stringify(listed) }, floor);
  const event = async (requestId: string): Promise<Answer> => {
    // each side's own: the request, its expiry, and the time of its approval
    const { rows } = await client.query(
      `SELECT type, data - 'requestId' - 'expiresAt'
         || jsonb_build_object('approvals', (SELECT jsonb_agg(approval - 'at') FROM jsonb_array_elements(data->'approvals') approval)) AS data
       FROM events WHERE request_id = $1`,
      [requestId],
    );
    if (rows.length !== 1) throw new Error(`${floorAt.name} check, approve: ${rows.length} events for ${requestId}, not 1`);
    return { status: 200, contentType: null, text: JSON.stringify(rows[0]) };
  };
  assertSame("approve (its event)", await event(appTarget!), await event(floorTarget!));
}
