import { describe, expect, it } from "vitest";
import { CHAT_EVENTS, CONSOLE_ORIGIN, MACHINE_CONTEXT } from "@/test/chat-schemas/chat-events";
import { describeChatEvent } from "./describe-chat-event";
import { MAX_VALUE_CHARACTERS, type ChatEvent } from "./chat-message";

const describeEvent = (event: ChatEvent, context = MACHINE_CONTEXT) => describeChatEvent(event, context, CONSOLE_ORIGIN);
const factsOf = (message: ReturnType<typeof describeEvent>) => Object.fromEntries(message.facts.map((fact) => [fact.label, fact.value]));
const REQUEST_PAGE = `${CONSOLE_ORIGIN}/pools/gpu-fra1/requests/jreq_01jf3m2x7k5v9q8w4e6r2t1y0u`;
const NODE_PAGE = `${CONSOLE_ORIGIN}/pools/gpu-fra1/nodes/node_01jf3m3a8b7c6d5e4f3g2h1j0k`;

describe("describeChatEvent", () => {
  it.each([
    ["created", "gpu-node-017.fra1.acme.example asks to join and waits for a decision", "waiting", REQUEST_PAGE],
    ["approvalRecorded", "gpu-node-017.fra1.acme.example: an approval was recorded; it waits for more", "waiting", REQUEST_PAGE],
    ["escalated", "gpu-node-017.fra1.acme.example still waits for a decision", "waiting", REQUEST_PAGE],
    ["approved", "gpu-node-017.fra1.acme.example was approved to join", "good", REQUEST_PAGE],
    ["rejected", "gpu-node-017.fra1.acme.example was rejected", "bad", REQUEST_PAGE],
    ["expired", "gpu-node-017.fra1.acme.example's join request expired undecided", "neutral", REQUEST_PAGE],
    ["nodeJoined", "gpu-node-017.fra1.acme.example joined as a node", "good", NODE_PAGE],
    ["nodeRevoked", "Node gpu-node-017.fra1.acme.example was revoked", "bad", NODE_PAGE],
    ["attestationFailed", "Node gpu-node-017.fra1.acme.example failed attestation: its boot matches no known state", "bad", NODE_PAGE],
  ] as const)("%s: a headline naming the machine, its tone, and a link to its page", (name, headline, tone, url) => {
    const message = describeEvent(CHAT_EVENTS[name]);
    expect(message).toMatchObject({ headline, tone, link: { url }, eventType: CHAT_EVENTS[name].type, eventId: CHAT_EVENTS[name].id });
    expect(factsOf(message)).toMatchObject({
      Machine: "gpu-node-017.fra1.acme.example",
      "Serial number": "CZ2041XK7Q",
      Pool: "GPU racks, Frankfurt (gpu-fra1)",
    });
  });

  it("says why a request waits, who approved, why it was rejected, which PCRs failed", () => {
    expect(factsOf(describeEvent(CHAT_EVENTS.created))).toMatchObject({
      Reasons: "unknown-to-discovery, tpm-not-proven",
      Expires: "2026-12-07T09:30:00.000Z",
    });
    expect(factsOf(describeEvent(CHAT_EVENTS.approvalRecorded))).toMatchObject({
      "Approved by": "user:ana@acme.example",
      "Approvals required": "2",
    });
    expect(factsOf(describeEvent(CHAT_EVENTS.approved))).toMatchObject({ "Approved by": "user:ana@acme.example" });
    expect(factsOf(describeEvent(CHAT_EVENTS.rejected))).toMatchObject({ Reason: "not one of ours" });
    expect(factsOf(describeEvent(CHAT_EVENTS.nodeRevoked))).toMatchObject({ Reason: "decommissioned" });
    expect(factsOf(describeEvent(CHAT_EVENTS.attestationFailed))).toMatchObject({ "Unmatched PCRs": "4, 7" });
  });

  it("an unclaimed request has no pool yet: it links to the console's overview, which lists it", () => {
    const message = describeEvent(CHAT_EVENTS.unclaimed);
    expect(factsOf(message).Pool).toBe("none yet (unclaimed)");
    expect(message.link).toEqual({ label: "Open the console", url: `${CONSOLE_ORIGIN}/` });
  });

  it("any other type: one plain line naming it, no page to link to", () => {
    const message = describeEvent(CHAT_EVENTS.other, { poolName: null, machine: null });
    expect(message).toMatchObject({ headline: "compute.admin.changed", tone: "neutral", link: null, facts: [] });
  });

  it("without the machine (its request deleted meanwhile) it says 'A machine'; without a pool name, the pool's id", () => {
    const message = describeEvent(CHAT_EVENTS.approved, { poolName: null, machine: null });
    expect(message.headline).toBe("A machine was approved to join");
    expect(factsOf(message).Pool).toBe("gpu-fra1");
  });

  it("links on the console's origin, the development default without one", () => {
    expect(describeChatEvent(CHAT_EVENTS.created, MACHINE_CONTEXT, undefined).link?.url).toBe(
      "http://localhost:3000/pools/gpu-fra1/requests/jreq_01jf3m2x7k5v9q8w4e6r2t1y0u",
    );
  });

  it("clips a long value, so no message outgrows a service's limits", () => {
    const message = describeEvent(CHAT_EVENTS.rejected, { ...MACHINE_CONTEXT, machine: { hostname: "h", serialNumber: "S".repeat(5000) } });
    expect(factsOf(message)["Serial number"]).toHaveLength(MAX_VALUE_CHARACTERS);
    expect(factsOf(message)["Serial number"]!.endsWith("…")).toBe(true);
  });

  it("ignores data of the wrong shape instead of failing", () => {
    const event = { ...CHAT_EVENTS.created, data: { poolId: 7, reasons: "x", requestId: ["no"] } };
    expect(describeEvent(event)).toMatchObject({ link: null });
    expect(describeChatEvent({ ...CHAT_EVENTS.created, data: null }, MACHINE_CONTEXT, CONSOLE_ORIGIN).link).toBeNull();
  });
});
