/** The queue's keys, in the order the help dialog lists them. */
export const QUEUE_SHORTCUTS = [
  { keys: ["j", "↓"], does: "next request" },
  { keys: ["k", "↑"], does: "previous request" },
  { keys: ["Enter", "o"], does: "open the request's page" },
  { keys: ["a"], does: "approve the request" },
  { keys: ["r"], does: "reject it (withdraw an approval)" },
  { keys: ["x"], does: "select it for a bulk decision" },
  { keys: ["?"], does: "this list" },
] as const;
