// Where a pool's rules live in the console (SPEC H2): the list, the editor of a new rule, and one rule's editor.
import { requestPagePath } from "@/lib/url/console-paths";
const poolBase = (poolId: string) => `/pools/${encodeURIComponent(poolId)}`;

export const rulesHref = (poolId: string) => `${poolBase(poolId)}/rules`;
export const newRuleHref = (poolId: string) => `${rulesHref(poolId)}/new`;
export const ruleHref = (poolId: string, ruleId: string) => `${rulesHref(poolId)}/${encodeURIComponent(ruleId)}`;
export const requestHref = requestPagePath;
