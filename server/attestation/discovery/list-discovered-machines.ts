import "server-only";
import { Prisma } from "../../db/generated/client";
import type { Db } from "../../db/client";
import { parseAdminInput } from "../../admin/admin-error";
import { listDiscoveredMachinesInput } from "@/lib/validations/attestation";
import type { DiscoveredMachineJson } from "@/lib/attestation/attestation-json";

/** A site's discovered machines by system UUID, optionally those whose UUID or a MAC starts with `query`. */
export async function listDiscoveredMachines(db: Db, input: unknown): Promise<{ machines: DiscoveredMachineJson[]; nextCursor?: string }> {
  const { tenantId, siteId, query, limit, cursor } = parseAdminInput(listDiscoveredMachinesInput, input);
  const prefix = query ? `${query.replace(/[\\%_]/g, (char) => `\\${char}`)}%` : null;
  const rows = await db.$queryRaw<{ systemUuid: string; macAddresses: string[]; assignedPoolId: string | null; createdAt: Date }[]>`
    SELECT system_uuid AS "systemUuid", mac_addresses AS "macAddresses", assigned_pool_id AS "assignedPoolId", created_at AS "createdAt"
    FROM discovered_machines
    WHERE tenant_id = ${tenantId} AND site_id = ${siteId}
      ${cursor ? Prisma.sql`AND system_uuid > ${cursor}` : Prisma.empty}
      ${prefix ? Prisma.sql`AND (system_uuid LIKE ${prefix} OR EXISTS (SELECT 1 FROM unnest(mac_addresses) AS mac WHERE mac LIKE ${prefix}))` : Prisma.empty}
    ORDER BY system_uuid LIMIT ${limit + 1}`;
  const page = rows.slice(0, limit).map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
  return rows.length > limit ? { machines: page, nextCursor: page[page.length - 1]!.systemUuid } : { machines: page };
}
