// Keys of the signed-in user's notification settings: one list, refetched
// after each change (the server says what a change to the default reads as).
export const notificationSettingKeys = {
  all: ["notification-settings"] as const,
  mine: () => [...notificationSettingKeys.all, "mine"] as const,
  update: (poolId: string) => [...notificationSettingKeys.all, poolId, "update"] as const,
};
