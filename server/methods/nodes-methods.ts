import "server-only";
import { joinNodeInput } from "@/lib/validations/node-join";
import { authenticateJoinCredential } from "../nodes/join-credential";
import { joinNode } from "../nodes/join-node";
import { defineMachineMethod, MethodResult } from "./define-method";

// SPEC B5: the node daemon's join, with a join token or a site enrollment key.
export const joinNodeMethod = defineMachineMethod({
  name: "nodes/join",
  kind: "mutation",
  phase: "v0.2",
  status: "registered",
  module: "server",
  summary: "A machine joins: admitted with a certificate (200), or deferred into a pending join request (202).",
  input: joinNodeInput,
  authenticate: authenticateJoinCredential,
  handler: async ({ db, input, credential, now }) => {
    const outcome = await joinNode({ db, credential, body: input, now });
    return outcome.status === "pending" ? new MethodResult(202, outcome) : outcome;
  },
});
