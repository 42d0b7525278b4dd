"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { ApiClientError } from "@/lib/api-client/api-client-error";
import { updatePool } from "@/lib/api-client/pools";
import type { PoolJson } from "@/lib/pools/pool-json";
import type { poolSettingsInput } from "@/lib/pools/pool-settings-input";
import { joinRequestKeys } from "@/data/join-requests/keys";
import { poolKeys } from "./keys";

/**
 * pools/update (SPEC H1: a tenant-admin sets approvalsRequired). The tenant's
 * queues are refetched: a site request takes the count of the pool that
 * claims it when it is approved. The caller re-renders the server-rendered
 * pool page (its heading shows the count).
 */
export function useUpdatePoolMutation(poolId: string, options: { onSuccess?: (pool: PoolJson) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation<{ pool: PoolJson }, ApiClientError, z.input<typeof poolSettingsInput>>({
    mutationKey: poolKeys.update(poolId),
    mutationFn: updatePool,
    onSuccess: async ({ pool }) => {
      await queryClient.invalidateQueries({ queryKey: joinRequestKeys.tenant(pool.tenantId) });
      options.onSuccess?.(pool);
    },
  });
}
