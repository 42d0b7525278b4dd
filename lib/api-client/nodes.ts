import type { z } from "zod";
import type { NodeJson } from "@/lib/nodes/node-json";
import type { revokeNodeInput } from "@/lib/validations/nodes";
import { callMethod } from "./call-method";

// Typed calls of the node methods the console makes.

export const revokeNode = (input: z.input<typeof revokeNodeInput>) => callMethod<NodeJson>("nodes/revoke", input);
