import { describe, expect, it } from "vitest";
import { callMethod } from "@/test/api/api-client";
import { DEMO_GOLDEN_BOOT_STATE } from "@/lib/tpm/demo-measured-boot";

// SPEC I3's demo data: the seed's software TPMs quote through nodes/attest's
// own functions, so the console has a trusted node and an untrusted one.
const VIEWER = "bcsk_acmeviewer.demo-acme-viewer-secret";
const ADMIN = "bcsk_acmeadmin.demo-acme-admin-secret";

async function gpuANode(hostname: string) {
  const listed = await callMethod("nodes/list", { tenantId: "acme", poolId: "gpu-a", limit: 200 }, { bearer: VIEWER });
  const node = listed.body.nodes.find((candidate: { hostname: string }) => candidate.hostname === hostname);
  expect(node, hostname).toBeDefined();
  return node;
}

describe("the seed's attesting nodes (SPEC I3)", () => {
  it("gpu-a-01 booted a known state: trusted, with its name and values", async () => {
    const node = await gpuANode("gpu-a-01.fra1.acme.test");
    expect(node.attestation).toMatchObject({ state: "trusted", unmatchedPcrs: [] });
    // the golden state, unless other demo data named gpu-a's states first
    if (node.attestation.bootState === DEMO_GOLDEN_BOOT_STATE.name) expect(node.attestation.pcrs).toEqual(DEMO_GOLDEN_BOOT_STATE.pcrs);
  });

  it("gpu-a-02 was trusted, then booted an unknown bootloader: untrusted, PCR 7 unmatched, one attestation-failed event", async () => {
    const node = await gpuANode("gpu-a-02.fra1.acme.test");
    expect(node.attestation).toMatchObject({ state: "untrusted", bootState: null, unmatchedPcrs: [7] });
    const events = await callMethod(
      "events/list",
      { tenantId: "acme", poolId: "gpu-a", types: ["compute.node.attestation-failed"], limit: 200 },
      { bearer: ADMIN },
    );
    const mine = events.body.events.filter((event: { data: { nodeId: string } }) => event.data.nodeId === node.id);
    expect(mine).toHaveLength(1);
    expect(mine[0].data).toMatchObject({ previousState: "trusted", unmatchedPcrs: { "7": node.attestation.pcrs["7"] } });
  });
});
