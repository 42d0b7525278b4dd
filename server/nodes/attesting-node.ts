import "server-only";
import type { Db } from "../db/client";
import { ApiError } from "../api/errors";
import { readStoredBootStates, type BootState } from "@/lib/pools/boot-states";
import { parseTpm2bPublic, type TpmPublic } from "@/lib/tpm/tpm2b-public";
import { TpmFormatError } from "@/lib/tpm/tpm-format-error";
import type { EventNode } from "../events/record-node-event";

/** What nodes/attest checks a quote against: the AK the node's join proved and its pool's known boot states. */
export interface AttestingNode {
  ak: TpmPublic;
  poolId: string;
  bootStates: BootState[];
}

/**
 * SPEC I3's preconditions, the same for both steps: the node holds an AK
 * (its join proved one, F1) and its pool names at least one boot state.
 * Either missing is INVALID_STATE (409): the request is well formed, the
 * node or its pool is not in a state to attest, and no retry changes that.
 */
export async function findAttestingNode(db: Db, node: EventNode): Promise<AttestingNode> {
  const row = await db.node.findUniqueOrThrow({ where: { id: node.id }, select: { tpmAkPublic: true } });
  if (!row.tpmAkPublic)
    throw new ApiError(
      "INVALID_STATE",
      `node ${node.id} has no attestation key: it joined without proving a TPM (SPEC F1), so it cannot attest; join again through the TPM join`,
    );
  const pool = await db.pool.findUniqueOrThrow({ where: { id: node.poolId }, select: { bootStates: true } });
  const bootStates = readStoredBootStates(pool.bootStates);
  if (bootStates.length === 0)
    throw new ApiError(
      "INVALID_STATE",
      `pool ${node.poolId} has no boot states: there is nothing to attest against until an admin names one (pools/update bootStates)`,
    );
  let ak: TpmPublic;
  try {
    ak = parseTpm2bPublic(row.tpmAkPublic);
  } catch (error) {
    // recorded by the join after it parsed it: a row that no longer parses is ours to fix, not the node's
    if (error instanceof TpmFormatError) throw new Error(`node ${node.id}'s stored AK does not parse: ${error.message}`);
    throw error;
  }
  return { ak, poolId: node.poolId, bootStates };
}
