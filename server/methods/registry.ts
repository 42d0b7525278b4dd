import "server-only";
import type { MethodDefinition } from "./define-method";
import { approveJoinRequestMethod, listJoinRequestsMethod, rejectJoinRequestMethod } from "./join-requests-methods";
import { listEventsMethod } from "./events-methods";
import { updatePoolMethod } from "./pools-methods";
import { getSettingsMethod, updateSettingsMethod } from "./notification-methods";
import {
  createRuleMethod,
  deleteRuleMethod,
  listRulesMethod,
  reorderRulesMethod,
  testRuleMethod,
  updateRuleMethod,
} from "./approval-rules-methods";
import { createJoinTokenMethod, listJoinTokensMethod, revokeJoinTokenMethod } from "./join-tokens-methods";
import { attestNodeMethod, getNodeMethod, joinNodeMethod, listNodesMethod, renewNodeMethod, revokeNodeMethod } from "./nodes-methods";
import { getInventoryMethod, listInventoryMethod, reportInventoryMethod } from "./inventory-methods";
import {
  addTpmAllowListMethod,
  listDiscoveryMethod,
  listTpmAllowListMethod,
  removeDiscoveryMethod,
  removeTpmAllowListMethod,
  listTpmTrustStoreMethod,
  addTpmTrustStoreMethod,
  removeTpmTrustStoreMethod,
  upsertDiscoveryMethod,
} from "./attestation-methods";

// The one list of published methods; POST /api/compute/<name> serves each.
export const METHODS: readonly MethodDefinition[] = [
  listJoinRequestsMethod,
  approveJoinRequestMethod,
  rejectJoinRequestMethod,
  listEventsMethod,
  createJoinTokenMethod,
  listJoinTokensMethod,
  revokeJoinTokenMethod,
  joinNodeMethod,
  listNodesMethod,
  getNodeMethod,
  revokeNodeMethod,
  renewNodeMethod,
  attestNodeMethod,
  reportInventoryMethod,
  getInventoryMethod,
  listInventoryMethod,
  listDiscoveryMethod,
  upsertDiscoveryMethod,
  removeDiscoveryMethod,
  listTpmAllowListMethod,
  addTpmAllowListMethod,
  removeTpmAllowListMethod,
  listTpmTrustStoreMethod,
  addTpmTrustStoreMethod,
  removeTpmTrustStoreMethod,
  updatePoolMethod,
  listRulesMethod,
  createRuleMethod,
  updateRuleMethod,
  deleteRuleMethod,
  reorderRulesMethod,
  testRuleMethod,
  getSettingsMethod,
  updateSettingsMethod,
];

const byName = new Map(METHODS.map((method) => [method.name, method]));

export function findMethod(name: string): MethodDefinition | undefined {
  return byName.get(name);
}
