import type { StateFilter } from "@/lib/validations/join-requests";

// Query keys of the join requests (supabase-studio style key factory). A
// decision can move a site request between pools, so mutations invalidate
// the whole tenant.
export const joinRequestKeys = {
  all: ["join-requests"] as const,
  tenant: (tenantId: string) => [...joinRequestKeys.all, tenantId] as const,
  list: (
    tenantId: string,
    poolId: string,
    state: StateFilter,
    cursor: string | null,
    awaitingApprovalFrom: string | null = null,
    decidedByRule = false,
  ) => [...joinRequestKeys.tenant(tenantId), poolId, "list", { state, cursor, awaitingApprovalFrom, decidedByRule }] as const,
};
