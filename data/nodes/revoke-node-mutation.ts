"use client";
import { useMutation } from "@tanstack/react-query";
import type { z } from "zod";
import type { ApiClientError } from "@/lib/api-client/api-client-error";
import { revokeNode } from "@/lib/api-client/nodes";
import type { NodeJson } from "@/lib/nodes/node-json";
import type { revokeNodeInput } from "@/lib/validations/nodes";
import { nodeKeys } from "./keys";

/** nodes/revoke, with its optional reason; the caller re-renders the page on success. */
export function useRevokeNodeMutation(options: { onSuccess?: (revoked: NodeJson) => void } = {}) {
  return useMutation<NodeJson, ApiClientError, z.input<typeof revokeNodeInput>>({
    mutationKey: nodeKeys.revoke(),
    mutationFn: revokeNode,
    onSuccess: (revoked) => options.onSuccess?.(revoked),
  });
}
