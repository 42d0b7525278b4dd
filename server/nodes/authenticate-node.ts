import "server-only";
import { readRows } from "../db/read-rows";
import { ApiError } from "../api/errors";
import type { Db } from "../db/client";
import { log } from "../log";
import { claimedNodeId, NodeTokenError, verifyNodeToken, type NodeTokenRefusal } from "./verify-node-token";
import type { EventNode } from "../events/record-node-event";
import { Prisma } from "../db/generated/client";
import { writeStatement } from "../db/write-statement";
import { nodeCredentialSql, type NodeCredentialRow } from "./node-credential-sql";

// SPEC D2: a machine method called as a node. Every refusal is this one
// answer, so a caller learns nothing about which check failed; the log names
// the cause and the node id (never the token).
export const NODE_REFUSAL_MESSAGE = "the node credential is not valid";

/** lastSeenAt is written at most this often (D1: coarse to a minute), so a busy node costs no extra write per call. */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

/** The node a verified JWT speaks for, and the serial of the certificate whose key signed it. */
export type AuthenticatedNode = EventNode & { hostname: string; certificateSerial: string };

/** The one answer to a refused node credential, its cause logged with the node id. */
export function refuseNodeCredential(cause: NodeTokenRefusal, nodeId: string | null): ApiError {
  log.warn("node credential refused", { node: nodeId, cause });
  return new ApiError("UNAUTHENTICATED", NODE_REFUSAL_MESSAGE);
}

/**
 * Verifies `Authorization: Bearer <JWT>` for the method at `audience`: the
 * node named by `kid` exists and is active, and the JWT verifies with one of
 * its certificates still valid at `now`. Then moves lastSeenAt when it is a
 * minute old (one conditional update, so concurrent calls write it once).
 */
export function authenticateNode(db: Db, request: Request, now: Date, audience: string): Promise<AuthenticatedNode> {
  return authenticate(db, request, now, audience, "any-valid");
}

/**
 * authenticateNode, reading one more JSON column (`also`, SQL over the node
 * row `n`) in the same statement, for a method whose next read would be by
 * the node's id anyway: inventory/report's latest snapshot.
 */
export async function authenticateNodeReading(
  db: Db,
  request: Request,
  now: Date,
  audience: string,
  also: Prisma.Sql,
): Promise<AuthenticatedNode & { also: unknown }> {
  return authenticate(db, request, now, audience, "any-valid", also);
}

/**
 * nodes/renew (SPEC G6): only the key of the node's newest certificate may
 * renew. Were the previous key enough, a thief holding it and the real node
 * could renew past each other for ever; it still serves every other call
 * until its notAfter, so a daemon that has not switched keys yet keeps working.
 */
export function authenticateRenewingNode(db: Db, request: Request, now: Date, audience: string): Promise<AuthenticatedNode> {
  return authenticate(db, request, now, audience, "newest");
}

async function authenticate(
  db: Db,
  request: Request,
  now: Date,
  audience: string,
  certificates: "any-valid" | "newest",
  also?: Prisma.Sql,
): Promise<AuthenticatedNode & { also: unknown }> {
  const { token, nodeId } = claimedNode(request.headers.get("authorization"));

  const [node] = await readRows<NodeCredentialRow>(db, nodeCredentialSql(nodeId, now, also));
  if (!node) throw refuseNodeCredential("unknown-node", nodeId);
  if (node.state !== "active") throw refuseNodeCredential("revoked", nodeId);
  const certificateSerial = await verifiedSerial({ token, nodeId, certificates: node.certificates, audience, now });
  // the node row names its newest certificate (admission and renewal write both in one transaction)
  if (certificates === "newest" && certificateSerial !== node.certSerial) throw refuseNodeCredential("superseded-certificate", nodeId);

  if (lastSeenDue(node.lastSeenAt, now)) await writeStatement(db, touchLastSeenSql(nodeId, now));
  return {
    id: node.id,
    tenantId: node.tenantId,
    siteId: node.siteId,
    poolId: node.poolId,
    hostname: node.hostname,
    certificateSerial,
    also: node.also,
  };
}

/** The JWT of `Authorization: Bearer <JWT>` and the node its `kid` claims (nothing verified yet); refused when unreadable. */
export function claimedNode(authorization: string | null): { token: string; nodeId: string } {
  const match = /^Bearer ([A-Za-z0-9_.-]+)$/.exec(authorization ?? "");
  if (!match) throw refuseNodeCredential("malformed", null);
  const token = match[1]!;
  const nodeId = claimedNodeId(token);
  if (!nodeId) throw refuseNodeCredential("malformed", null);
  return { token, nodeId };
}

/** The serial of the node's certificate whose key verifies `token` for `audience` at `now`; refused otherwise. */
export async function verifiedSerial(input: {
  token: string;
  nodeId: string;
  certificates: NodeCredentialRow["certificates"];
  audience: string;
  now: Date;
}): Promise<string> {
  const { token, nodeId, audience, now } = input;
  const keys = input.certificates.map((certificate) => ({
    serial: certificate.serial,
    spkiDer: Buffer.from(certificate.publicKey, "base64"),
    notAfter: new Date(certificate.notAfter),
  }));
  try {
    return (await verifyNodeToken({ token, nodeId, keys, audience, now })).serial;
  } catch (error) {
    if (error instanceof NodeTokenError) throw refuseNodeCredential(error.cause, nodeId);
    throw error;
  }
}

/** A call at `now` moves a lastSeenAt at or before this (or none). */
export const lastSeenStaleBefore = (now: Date) => new Date(now.getTime() - LAST_SEEN_RESOLUTION_MS);

/** Moves the node's lastSeenAt to `now` when it is due (conditional: concurrent calls write it once). */
export const touchLastSeenSql = (nodeId: string, now: Date) => Prisma.sql`
  UPDATE nodes SET last_seen_at = ${now}
  WHERE id = ${nodeId} AND (last_seen_at IS NULL OR last_seen_at <= ${lastSeenStaleBefore(now)})`;

/** Whether a call at `now` moves lastSeenAt: never written, or a minute old. */
export function lastSeenDue(lastSeenAt: Date | null, now: Date): boolean {
  return !lastSeenAt || lastSeenAt.getTime() <= lastSeenStaleBefore(now).getTime();
}
