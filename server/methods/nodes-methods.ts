import "server-only";
import { joinNodeInput } from "@/lib/validations/node-join";
import { authenticateJoinCredential } from "../nodes/join-credential";
import { joinNode } from "../nodes/join-node";
import { capJoinRate } from "../nodes/join-rate-cap";
import { defineMachineMethod, MethodResult } from "./define-method";

// SPEC B5: the node daemon's join, with a join token or a site enrollment key.
export const joinNodeMethod = defineMachineMethod({
  name: "nodes/join",
  kind: "mutation",
  phase: "v0.2",
  status: "registered",
  module: "server",
  summary: "A machine joins: admitted with a certificate (200), or deferred into a pending join request (202).",
  description:
    "The CSR's own signature must verify. The hardware, discovery and tpm attestors run in turn; none deferred → 200 admitted with the " +
    "CSR signed by the tenant's CA; any deferred → a new pending request (202). A retry with the same CSR: pending → the same 202; " +
    "approved → consumed once, 200; rejected → 403 JOIN_REJECTED; consumed → 409 INVALID_STATE; expired → a fresh pending request.",
  publishes: ["security.join-request.created", "security.join-request.consumed"],
  credentials: ["joinToken", "enrollmentKey"],
  input: joinNodeInput,
  authenticate: authenticateJoinCredential,
  handler: async ({ db, input, credential, now }) => {
    await capJoinRate(credential);
    const outcome = await joinNode({ db, credential, body: input, now });
    return outcome.status === "pending" ? new MethodResult(202, outcome) : outcome;
  },
});
