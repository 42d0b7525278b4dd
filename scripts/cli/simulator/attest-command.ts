// The simulated daemon attests its boot (SPEC I3): nodes/attest for a nonce,
// a quote by its software TPM (F5: the AK it joined with, from tpm.json), the
// quote sent back; `--every` seconds again, `--times` in all. The software
// TPM's PCRs start at zero in each process, so each run boots the demo
// machine again: the demo firmware and signed bootloader (gpu-a's demo boot
// state), or with `--tamper` a patched bootloader no state knows.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { z } from "zod";
import type { attestationChallenge } from "@/lib/api/responses/nodes";
import type { NodeAttestationJson } from "@/lib/nodes/node-attestation";
import { quoteOnWire, SoftwareTpm, type SoftwareTpmState } from "@/lib/tpm/software-tpm";
import { bootDemoMachine } from "@/lib/tpm/demo-measured-boot";
import { callAsNode, loadNode } from "./node-commands";
import type { SimulatorOutput } from "./output";

export async function attestCommand(
  out: SimulatorOutput,
  input: {
    url: string;
    dir: string;
    name: string;
    tamper: boolean;
    everySeconds: number;
    times: number;
  },
): Promise<number> {
  const { url, dir, name } = input;
  const node = await loadNode(dir, name);
  const state = await readFile(path.join(dir, "tpm.json"), "utf8").catch(() => {
    throw new Error(`"${name}" has no TPM (tpm.json): only the tpm-* scenarios attest`);
  });
  const tpm = bootDemoMachine(new SoftwareTpm(JSON.parse(state) as SoftwareTpmState), { tampered: input.tamper });
  for (let round = 1; round <= input.times; round++) {
    if (round > 1) await sleep(input.everySeconds * 1000);
    out.log(`${name} (node ${node.nodeId}) attests${input.times > 1 ? ` (${round} of ${input.times})` : ""}`);
    const asked = await callAsNode<z.infer<typeof attestationChallenge>>(out, url, dir, node, "nodes/attest", {});
    if (!asked.ok) return 1;
    const { nonce, pcrSelection } = asked.answer;
    const quote = tpm.quote({ nonce: Buffer.from(nonce, "base64"), pcrSelection });
    out.log(`quoted PCR ${pcrSelection.join(",")} with the nonce (software TPM, the AK it joined with)`);
    const body = { quote: quoteOnWire(quote) };
    const answered = await callAsNode<NonNullable<NodeAttestationJson>>(out, url, dir, node, "nodes/attest", body);
    if (!answered.ok) return 1;
    const { state: verdict, bootState, unmatchedPcrs } = answered.answer;
    out.log(
      verdict === "trusted"
        ? `trusted: boot state "${bootState}"`
        : `${verdict}: PCR ${unmatchedPcrs.join(", ") || "(their combination)"} matched no known boot state`,
    );
  }
  return 0;
}
