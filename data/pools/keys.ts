// Keys of the pools' changes. A pool's pages are server-rendered and render
// again from the server after a change (router.refresh), so no query of a
// pool is cached to key; a mutation's key names the change (for
// useIsMutating and the devtools).
export const poolKeys = {
  all: ["pools"] as const,
  update: (poolId: string) => [...poolKeys.all, poolId, "update"] as const,
};
