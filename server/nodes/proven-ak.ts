import "server-only";
import type { Db } from "../db/client";

/**
 * SPEC I3 for a node admitted by an approval: the AK its join proved (F1) is
 * recorded when the retry presents it again and a used challenge of this CSR
 * was made for that AK's Name (its activation is what proved it). A retry
 * without the AK, or with another, makes a node without one.
 */
export async function provenAkOf(
  db: Db,
  join: { tenantId: string; csrSha256: string; akPublic: Buffer | undefined; akName: Buffer | null },
): Promise<Buffer | undefined> {
  if (!join.akPublic || !join.akName) return undefined;
  const used = await db.tpmChallenge.findFirst({
    where: { tenantId: join.tenantId, csrSha256: join.csrSha256, akName: join.akName.toString("hex"), usedAt: { not: null } },
    select: { id: true },
  });
  return used ? join.akPublic : undefined;
}
