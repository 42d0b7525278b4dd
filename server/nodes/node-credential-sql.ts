import "server-only";
import { Prisma } from "../db/generated/client";

/**
 * What authenticating a node reads (SPEC D2), in one statement: the node,
 * its certificates still valid at `now` and, when the method asks, one more
 * JSON column of its own (`also`: inventory/report's latest snapshot), so a
 * daemon's frequent call costs one round trip to authenticate and decide.
 */
export function nodeCredentialSql(nodeId: string, now: Date, also?: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    SELECT n.id, n.tenant_id AS "tenantId", n.site_id AS "siteId", n.pool_id AS "poolId", n.hostname,
           n.state::text AS state, n.last_seen_at AS "lastSeenAt", n.cert_serial AS "certSerial",
           COALESCE((SELECT json_agg(json_build_object('serial', c.serial, 'publicKey', encode(c.public_key, 'base64'), 'notAfter', c.not_after) ORDER BY c.id)
                     FROM node_certificates c WHERE c.node_id = n.id AND c.not_after > ${now}), '[]'::json) AS certificates,
           ${also ?? Prisma.sql`NULL::json`} AS also
    FROM nodes n WHERE n.id = ${nodeId}`;
}

export interface NodeCredentialRow {
  id: string;
  tenantId: string;
  siteId: string;
  poolId: string;
  hostname: string;
  state: string;
  lastSeenAt: Date | null;
  certSerial: string;
  /** as json_build_object writes them: the key in base64, times as text */
  certificates: { serial: string; publicKey: string; notAfter: string }[];
  also: unknown;
}
