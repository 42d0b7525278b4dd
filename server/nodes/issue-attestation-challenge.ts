import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "../db/client";
import { newId } from "@/lib/ids";
import { bootStatePcrSelection } from "@/lib/pools/boot-states";
import type { EventNode } from "../events/record-node-event";
import { findAttestingNode } from "./attesting-node";

/** How long a node has to quote the nonce (SPEC I3: 5 minutes). */
export const ATTESTATION_CHALLENGE_TTL_SECONDS = 5 * 60;

export interface AttestationChallenge {
  nonce: string;
  pcrSelection: number[];
  expiresAt: string;
}

/**
 * nodes/attest's first step (SPEC I3): 32 random bytes the next quote must
 * carry as qualifying data, over every PCR the pool's boot states name. The
 * node's spent and expired challenges go as it asks for a new one, so a node
 * keeps only the few it has live.
 */
export async function issueAttestationChallenge(input: { db: Db; node: EventNode; now: Date }): Promise<AttestationChallenge> {
  const { db, node, now } = input;
  const { bootStates } = await findAttestingNode(db, node);
  const nonce = randomBytes(32);
  const pcrSelection = bootStatePcrSelection(bootStates);
  const expiresAt = new Date(now.getTime() + ATTESTATION_CHALLENGE_TTL_SECONDS * 1000);
  await db.$transaction([
    db.nodeAttestationChallenge.deleteMany({ where: { nodeId: node.id, OR: [{ usedAt: { not: null } }, { expiresAt: { lte: now } }] } }),
    db.nodeAttestationChallenge.create({
      data: { id: newId("natc", now.getTime()), nodeId: node.id, nonce, pcrSelection, createdAt: now, expiresAt },
    }),
  ]);
  return { nonce: nonce.toString("base64"), pcrSelection, expiresAt: expiresAt.toISOString() };
}
