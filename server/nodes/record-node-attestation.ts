import "server-only";
import type { Db } from "../db/client";
import { ApiError } from "../api/errors";
import { log } from "../log";
import { recordNodeEvent, type EventNode } from "../events/record-node-event";
import { bootStatePcrSelection, matchBootState } from "@/lib/pools/boot-states";
import { unmatchedPcrs, type NodeAttestationJson } from "@/lib/nodes/node-attestation";
import { parseQuoteAttest } from "@/lib/tpm/tpms-attest";
import { TpmFormatError } from "@/lib/tpm/tpm-format-error";
import { QuoteRejectedError, verifyQuote, type VerifiedQuote } from "@/lib/tpm/verify-quote";
import type { AttestNodeInput } from "@/lib/validations/node-attest";
import { findAttestingNode, type AttestingNode } from "./attesting-node";

type Quote = NonNullable<AttestNodeInput["quote"]>;

const refused = (node: EventNode, reason: string, message: string) => {
  log.warn("node quote refused", { node: node.id, reason });
  return new ApiError("PERMISSION_DENIED", `the quote is refused (${reason}): ${message}`);
};

/**
 * nodes/attest's second step (SPEC I3): the quote is checked as a join's is
 * (I2: the AK the node's join proved, a TPM-made quote, the nonce of a live
 * challenge of this node, exactly its PCR selection, values that hash to the
 * attested digest), then matched against the pool's boot states. A quote
 * that fails any check is 403 and records nothing. Otherwise, in one
 * transaction: the challenge is used up (a replay loses), the node's
 * attestation is written, and a change to untrusted publishes
 * `compute.node.attestation-failed` — once per change, under the node's lock,
 * so a node that keeps failing does not flood its pool's events.
 */
export async function recordNodeAttestation(input: {
  db: Db;
  node: EventNode;
  quote: Quote;
  now: Date;
}): Promise<NonNullable<NodeAttestationJson>> {
  const { db, node, quote, now } = input;
  const attesting = await findAttestingNode(db, node);
  const { challengeId, verified } = await verifyNodeQuote(db, node, attesting, quote, now);

  const bootState = matchBootState(attesting.bootStates, verified.pcrs);
  const state = bootState ? "trusted" : "untrusted";
  const unmatched = bootState ? [] : unmatchedPcrs(attesting.bootStates, verified.pcrs);
  await db.$transaction(async (tx) => {
    const { count } = await tx.nodeAttestationChallenge.updateMany({
      where: { id: challengeId, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (count === 0) throw refused(node, "wrong-nonce", "this challenge was used by a concurrent quote");
    const [previous] = await tx.$queryRaw<{ state: string | null }[]>`
      SELECT attestation_state::text AS state FROM nodes WHERE id = ${node.id} FOR UPDATE`;
    await tx.node.update({
      where: { id: node.id },
      data: {
        attestationState: state,
        attestedAt: now,
        attestationBootState: bootState,
        attestationPcrs: verified.pcrs,
        attestationUnmatched: unmatched,
      },
    });
    if (state === "untrusted" && previous?.state !== "untrusted") {
      const shown = unmatched.length > 0 ? unmatched : Object.keys(verified.pcrs).map(Number);
      await recordNodeEvent(tx, {
        type: "compute.node.attestation-failed",
        node,
        actor: node.id,
        now,
        data: {
          previousState: previous?.state ?? null,
          unmatchedPcrs: Object.fromEntries(shown.map((index) => [String(index), verified.pcrs[String(index)]!])),
          pcrs: verified.pcrs,
        },
      });
    }
  });
  return { state, at: now.toISOString(), bootState, pcrs: verified.pcrs, unmatchedPcrs: unmatched };
}

/**
 * The quote names its challenge by the nonce it carries. verifyQuote runs
 * whatever that nonce finds, so a forged or altered quote is refused for what
 * is wrong with it (bad-signature, pcr-digest-mismatch); a genuine quote of a
 * nonce this node was not given, or has used, or let expire, is wrong-nonce.
 */
async function verifyNodeQuote(
  db: Db,
  node: EventNode,
  attesting: AttestingNode,
  quote: Quote,
  now: Date,
): Promise<{ challengeId: string; verified: VerifiedQuote }> {
  const carried = quotedNonce(quote.attest);
  const challenge = carried
    ? await db.nodeAttestationChallenge.findUnique({ where: { nodeId_nonce: { nodeId: node.id, nonce: new Uint8Array(carried) } } })
    : null;
  let verified: VerifiedQuote;
  try {
    verified = verifyQuote({
      ak: attesting.ak,
      attest: quote.attest,
      signature: quote.signature,
      nonce: challenge ? Buffer.from(challenge.nonce) : (carried ?? Buffer.alloc(32)),
      pcrSelection: challenge?.pcrSelection ?? bootStatePcrSelection(attesting.bootStates),
      pcrs: quote.pcrs,
    });
  } catch (error) {
    if (error instanceof QuoteRejectedError) throw refused(node, error.reason, error.message);
    if (error instanceof TpmFormatError)
      throw new ApiError("INVALID_ARGUMENT", `quote: ${error.message}`, [{ field: "quote", message: error.message }]);
    throw error;
  }
  if (!challenge) throw refused(node, "wrong-nonce", "the quote does not carry a nonce nodes/attest gave this node");
  if (challenge.usedAt) throw refused(node, "wrong-nonce", "this challenge's nonce was already quoted (a replay)");
  if (challenge.expiresAt.getTime() <= now.getTime())
    throw refused(node, "wrong-nonce", "this challenge expired; call nodes/attest without a quote for a new nonce");
  return { challengeId: challenge.id, verified };
}

/** The qualifying data of bytes that parse as a quote; null when they do not (verifyQuote then says why). */
function quotedNonce(attest: Buffer): Buffer | null {
  try {
    return parseQuoteAttest(attest).extraData;
  } catch (error) {
    if (error instanceof TpmFormatError) return null;
    throw error;
  }
}
