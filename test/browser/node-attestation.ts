import { db } from "./data";

// SPEC I3 for the console specs: a pool's boot states and a node's last
// attestation, written straight into the test database as nodes/attest would
// leave them (its own tests, e2e/api/node-attest*.test.ts, go through the API).

export async function setBootStates(poolId: string, states: { name: string; pcrs: Record<string, string> }[], requireKnownBoot: boolean) {
  await db().query(`UPDATE pools SET boot_states = $2::jsonb, require_known_boot = $3 WHERE id = $1`, [
    poolId,
    JSON.stringify(states),
    requireKnownBoot,
  ]);
}

export async function setNodeAttestation(
  nodeId: string,
  attestation: { state: "trusted" | "untrusted"; bootState: string | null; pcrs: Record<string, string>; unmatched: number[] },
) {
  await db().query(
    `UPDATE nodes SET attestation_state = $2::node_attestation_state, attested_at = now(), attestation_boot_state = $3,
       attestation_pcrs = $4::jsonb, attestation_unmatched = $5::int[] WHERE id = $1`,
    [nodeId, attestation.state, attestation.bootState, JSON.stringify(attestation.pcrs), attestation.unmatched],
  );
}
