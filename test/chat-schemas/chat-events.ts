import type { ChatContext, ChatEvent } from "@/lib/webhooks/chat/chat-message";

// Realistic events for the chat renderers' tests and the examples in
// docs/examples/chat/: one of each type a person hears of, and contexts.

export const CONSOLE_ORIGIN = "https://console.example.com";

export const MACHINE_CONTEXT: ChatContext = {
  poolName: "GPU racks, Frankfurt",
  machine: { hostname: "gpu-node-017.fra1.acme.example", serialNumber: "CZ2041XK7Q" },
};

/** What a machine may claim about itself: a mention, a Slack link, Markdown and HTML links, a code span's end. */
export const HOSTILE_CONTEXT: ChatContext = {
  poolName: "<!here> [pool](https://evil.example)",
  machine: {
    hostname: "<!channel>",
    serialNumber: '<https://evil.example|click> @all [x](https://evil.example) <a href="https://evil.example">y</a> `z`',
  },
};

const base = { tenantId: "acme", occurredAt: "2026-12-06T09:30:00.000Z" };
const request = { requestId: "jreq_01jf3m2x7k5v9q8w4e6r2t1y0u", siteId: "fra1", poolId: "gpu-fra1", actor: "join-token:tok_rack17" };
const node = { nodeId: "node_01jf3m3a8b7c6d5e4f3g2h1j0k", siteId: "fra1", poolId: "gpu-fra1", actor: "user:ana@acme.example" };
const approval = { by: "user:ana@acme.example", at: "2026-12-06T09:41:00.000Z", ttlSeconds: 3600 };

export const CHAT_EVENTS = {
  created: {
    ...base,
    id: "evt_01jf3m2x7k5v9q8w4e6r2t1y0a",
    type: "security.join-request.created",
    data: { ...request, reasons: ["unknown-to-discovery", "tpm-not-proven"], expiresAt: "2026-12-07T09:30:00.000Z" },
  },
  unclaimed: {
    ...base,
    id: "evt_01jf3m2x7k5v9q8w4e6r2t1y0b",
    type: "security.join-request.created",
    data: { ...request, poolId: null, reasons: ["unknown-to-discovery"], expiresAt: "2026-12-07T09:30:00.000Z" },
  },
  approvalRecorded: {
    ...base,
    id: "evt_01jf3m2x7k5v9q8w4e6r2t1y0c",
    type: "security.join-request.approval-recorded",
    data: { ...request, approvalsRequired: 2, approvals: [approval] },
  },
  escalated: {
    ...base,
    id: "evt_01jf3m2x7k5v9q8w4e6r2t1y0d",
    type: "compute.join-request.escalated",
    data: { ...request, reasons: ["unknown-to-discovery"] },
  },
  approved: {
    ...base,
    id: "evt_01jf3m2x7k5v9q8w4e6r2t1y0e",
    type: "security.join-request.approved",
    data: { ...request, actor: approval.by, approvalsRequired: 1, approvals: [approval], expiresAt: "2026-12-06T10:41:00.000Z" },
  },
  rejected: {
    ...base,
    id: "evt_01jf3m2x7k5v9q8w4e6r2t1y0f",
    type: "security.join-request.rejected",
    data: { ...request, actor: approval.by, previousState: "pending", reason: "not one of ours" },
  },
  expired: { ...base, id: "evt_01jf3m2x7k5v9q8w4e6r2t1y0g", type: "security.join-request.expired", data: { ...request, actor: "system" } },
  nodeJoined: {
    ...base,
    id: "evt_01jf3m2x7k5v9q8w4e6r2t1y0h",
    type: "compute.node.joined",
    data: { ...node, joinRequestId: request.requestId },
  },
  nodeRevoked: { ...base, id: "evt_01jf3m2x7k5v9q8w4e6r2t1y0j", type: "compute.node.revoked", data: { ...node, reason: "decommissioned" } },
  attestationFailed: {
    ...base,
    id: "evt_01jf3m2x7k5v9q8w4e6r2t1y0k",
    type: "compute.node.attestation-failed",
    data: { ...node, actor: node.nodeId, previousState: "trusted", unmatchedPcrs: { "4": "ab12", "7": "cd34" }, pcrs: {} },
  },
  other: {
    ...base,
    id: "evt_01jf3m2x7k5v9q8w4e6r2t1y0m",
    type: "compute.admin.changed",
    data: { actor: "operator", noun: "webhook", verb: "create" },
  },
} satisfies Record<string, ChatEvent>;
