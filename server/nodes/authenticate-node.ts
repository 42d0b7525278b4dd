import "server-only";
import { ApiError } from "../api/errors";
import type { Db } from "../db/client";
import { log } from "../log";
import { claimedNodeId, NodeTokenError, verifyNodeToken, type NodeTokenRefusal } from "./verify-node-token";
import type { EventNode } from "../events/record-node-event";

// SPEC D2: a machine method called as a node. Every refusal is this one
// answer, so a caller learns nothing about which check failed; the log names
// the cause and the node id (never the token).
export const NODE_REFUSAL_MESSAGE = "the node credential is not valid";

/** lastSeenAt is written at most this often (D1: coarse to a minute), so a busy node costs no extra write per call. */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

/** The node a verified JWT speaks for. */
export type AuthenticatedNode = EventNode & { hostname: string };

function refuse(cause: NodeTokenRefusal, nodeId: string | null): ApiError {
  log.warn("node credential refused", { node: nodeId, cause });
  return new ApiError("UNAUTHENTICATED", NODE_REFUSAL_MESSAGE);
}

/**
 * Verifies `Authorization: Bearer <JWT>` for the method at `audience`: the
 * node named by `kid` exists and is active, and the JWT verifies with one of
 * its certificates still valid at `now`. Then moves lastSeenAt when it is a
 * minute old (one conditional update, so concurrent calls write it once).
 */
export async function authenticateNode(db: Db, request: Request, now: Date, audience: string): Promise<AuthenticatedNode> {
  const match = /^Bearer ([A-Za-z0-9_.-]+)$/.exec(request.headers.get("authorization") ?? "");
  if (!match) throw refuse("malformed", null);
  const token = match[1]!;
  const nodeId = claimedNodeId(token);
  if (!nodeId) throw refuse("malformed", null);

  const node = await db.node.findUnique({
    where: { id: nodeId },
    select: {
      id: true,
      tenantId: true,
      siteId: true,
      poolId: true,
      hostname: true,
      state: true,
      lastSeenAt: true,
      certificates: { where: { notAfter: { gt: now } }, select: { publicKey: true, notAfter: true } },
    },
  });
  if (!node) throw refuse("unknown-node", nodeId);
  if (node.state !== "active") throw refuse("revoked", nodeId);
  try {
    const keys = node.certificates.map((certificate) => ({ spkiDer: certificate.publicKey, notAfter: certificate.notAfter }));
    await verifyNodeToken({ token, nodeId, keys, audience, now });
  } catch (error) {
    if (error instanceof NodeTokenError) throw refuse(error.cause, nodeId);
    throw error;
  }

  if (!node.lastSeenAt || now.getTime() - node.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    const staleBefore = new Date(now.getTime() - LAST_SEEN_RESOLUTION_MS);
    await db.node.updateMany({
      where: { id: nodeId, OR: [{ lastSeenAt: null }, { lastSeenAt: { lte: staleBefore } }] },
      data: { lastSeenAt: now },
    });
  }
  return { id: node.id, tenantId: node.tenantId, siteId: node.siteId, poolId: node.poolId, hostname: node.hostname };
}
