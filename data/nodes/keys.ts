// Keys of the nodes' changes. The node pages are server-rendered and render
// again from the server after a change (router.refresh), so no query of them
// is cached to key; a mutation's key names the change (for useIsMutating and
// the devtools).
export const nodeKeys = {
  all: ["nodes"] as const,
  revoke: () => [...nodeKeys.all, "revoke"] as const,
};
