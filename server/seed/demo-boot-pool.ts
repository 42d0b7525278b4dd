import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "../db/client";
import { createPool } from "../admin/create-pool";
import { updatePoolSettings } from "../admin/update-pool-settings";
import type { AdminActor } from "../admin/record-admin-change";
import { DEMO_BOOT_IMAGE_BYTE, DEMO_BOOT_POOL } from "./demo-data";

/** A SHA-256 PCR after one extension, from zero, by 32 bytes of `byte` (what the software TPM computes). */
export function pcrExtendedOnce(byte: number): string {
  return createHash("sha256").update(Buffer.alloc(32)).update(Buffer.alloc(32, byte)).digest("hex");
}

export const DEMO_BOOT_STATE = {
  name: "demo-image-2026-12",
  pcrs: { "0": "00".repeat(32), "7": pcrExtendedOnce(DEMO_BOOT_IMAGE_BYTE) },
};

/** SPEC I2's demo pool: created, then given its known boot state and required to match it, as a tenant-admin would; left alone after. */
export async function seedBootPool(admin: { db: Db; actor: AdminActor; now: Date }): Promise<void> {
  const { outcome } = await createPool({ ...admin, input: DEMO_BOOT_POOL });
  if (outcome !== "created") return;
  const { tenantId, id: poolId } = DEMO_BOOT_POOL;
  await updatePoolSettings({ ...admin, tenantId, poolId, bootStates: [DEMO_BOOT_STATE], requireKnownBoot: true });
}
