"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ApiClientError } from "@/lib/api-client/api-client-error";
import { updateNotificationSetting } from "@/lib/api-client/notifications";
import type { NotificationMode, NotificationSettingsJson, PoolNotificationSettingJson } from "@/lib/notifications/settings-schemas";
import { notificationSettingKeys } from "./keys";

/**
 * notifications/updateSettings for one pool: `mode`, or null for the pool's
 * default. The pool's entry in the cached list becomes the server's answer.
 */
export function useUpdateSettingMutation(
  pool: { tenantId: string; poolId: string },
  options: { onSuccess?: (setting: PoolNotificationSettingJson) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation<{ setting: PoolNotificationSettingJson }, ApiClientError, NotificationMode | null>({
    mutationKey: notificationSettingKeys.update(pool.poolId),
    // one pool's saves run one after the other: choices made quickly (arrow keys) reach the server in the order made
    scope: { id: `notification-setting:${pool.poolId}` },
    mutationFn: (mode) => updateNotificationSetting({ tenantId: pool.tenantId, poolId: pool.poolId, mode }),
    onSuccess: ({ setting }) => {
      queryClient.setQueryData<NotificationSettingsJson>(
        notificationSettingKeys.mine(),
        (settings) => settings && { ...settings, pools: settings.pools.map((each) => (each.poolId === setting.poolId ? setting : each)) },
      );
      options.onSuccess?.(setting);
    },
  });
}
