// Keys of a pool's approval rules (supabase-studio style key factory). Every
// change of a rule invalidates the pool's list: its order, versions and
// counts come from the server.
export const approvalRuleKeys = {
  all: ["approval-rules"] as const,
  pool: (tenantId: string, poolId: string) => [...approvalRuleKeys.all, tenantId, poolId] as const,
  list: (tenantId: string, poolId: string) => [...approvalRuleKeys.pool(tenantId, poolId), "list"] as const,
  test: (tenantId: string, poolId: string) => [...approvalRuleKeys.pool(tenantId, poolId), "test"] as const,
};
