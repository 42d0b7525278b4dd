import "server-only";
import { tpmAllowedKeyJson, tpmTrustedRootJson } from "@/lib/attestation/attestation-json";
import {
  listDiscoveryResponse,
  listTpmAllowListResponse,
  listTpmTrustStoreResponse,
  removedResponse,
  upsertDiscoveryResponse,
} from "@/lib/api/responses/attestation";
import {
  addTpmAllowedKeyInput,
  listDiscoveredMachinesInput,
  listTpmAllowedKeysInput,
  removeDiscoveredMachinesInput,
  listTpmTrustedRootsInput,
  removeTpmAllowedKeyInput,
  tpmTrustedRootInput,
  upsertDiscoveredMachinesInput,
} from "@/lib/validations/attestation";
import { listDiscoveredMachines } from "../attestation/discovery/list-discovered-machines";
import { removeDiscoveredMachines } from "../attestation/discovery/remove-discovered-machines";
import { addTpmAllowedKey, listTpmAllowedKeys, removeTpmAllowedKey } from "../attestation/allow-list/tpm-allow-list";
import { addTpmTrustedRoot, listTpmTrustedRoots, removeTpmTrustedRoot } from "../attestation/trust-store/tpm-trust-store";
import { upsertDiscoveredMachines } from "../attestation/discovery/upsert-discovered-machines";
import { defineSiteMethod, defineTenantMethod } from "./define-method";

// SPEC E3: the attestors' knowledge as published methods. A machine made known
// or allowed is admitted at its next join; requests already pending stay pending.
const common = { phase: "v0.3", status: "registered", module: "server" } as const;
const site = { ...common, resource: "compute-site" } as const;
const tenant = { ...common, resource: "compute-tenant" } as const;

export const listDiscoveryMethod = defineSiteMethod({
  ...site,
  name: "discovery/list",
  responses: { 200: listDiscoveryResponse },
  kind: "read",
  permission: "compute:attestation:read",
  summary: "Lists the site's discovered machines by system UUID, optionally those whose UUID or a MAC starts with `query`.",
  input: listDiscoveredMachinesInput,
  handler: ({ db, input }) => listDiscoveredMachines(db, input),
});

export const upsertDiscoveryMethod = defineSiteMethod({
  ...site,
  name: "discovery/upsert",
  responses: { 200: upsertDiscoveryResponse },
  kind: "mutation",
  permission: "compute:attestation:manage",
  summary:
    "Makes up to 1,000 machines known to the site (created, or updated with the given MACs and pool); all or nothing. Publishes compute.discovery.changed.",
  input: upsertDiscoveredMachinesInput,
  // 1,000 machines with up to 16 MACs each
  maxBodyBytes: 1024 * 1024,
  handler: ({ db, input, principal, now }) => upsertDiscoveredMachines({ db, actor: principal.id, now, input }),
});

export const removeDiscoveryMethod = defineSiteMethod({
  ...site,
  name: "discovery/remove",
  responses: { 200: removedResponse },
  kind: "mutation",
  permission: "compute:attestation:manage",
  summary: "Forgets up to 1,000 machines of the site by system UUID. Publishes compute.discovery.changed.",
  input: removeDiscoveredMachinesInput,
  handler: ({ db, input, principal, now }) => removeDiscoveredMachines({ db, actor: principal.id, now, input }),
});

export const listTpmAllowListMethod = defineTenantMethod({
  ...tenant,
  name: "tpmAllowList/list",
  responses: { 200: listTpmAllowListResponse },
  kind: "read",
  permission: "compute:attestation:read",
  summary: "Lists the tenant's allowed TPM endorsement keys by hash.",
  input: listTpmAllowedKeysInput,
  handler: ({ db, input }) => listTpmAllowedKeys(db, input),
});

export const addTpmAllowListMethod = defineTenantMethod({
  ...tenant,
  name: "tpmAllowList/add",
  responses: { 200: tpmAllowedKeyJson },
  kind: "mutation",
  permission: "compute:attestation:manage",
  summary: "Allows an endorsement key (its PEM or SHA-256); idempotent. Publishes compute.tpm-allow-list.changed.",
  input: addTpmAllowedKeyInput,
  handler: async ({ db, input, principal, now }) => (await addTpmAllowedKey({ db, actor: principal.id, now, input })).key,
});

export const removeTpmAllowListMethod = defineTenantMethod({
  ...tenant,
  name: "tpmAllowList/remove",
  responses: { 200: removedResponse },
  kind: "mutation",
  permission: "compute:attestation:manage",
  summary: "Takes an endorsement key off the allow-list. Publishes compute.tpm-allow-list.changed.",
  input: removeTpmAllowedKeyInput,
  handler: ({ db, input, principal, now }) => removeTpmAllowedKey({ db, actor: principal.id, now, input }),
});

export const listTpmTrustStoreMethod = defineTenantMethod({
  ...tenant,
  name: "tpmTrustStore/list",
  phase: "v0.4",
  responses: { 200: listTpmTrustStoreResponse },
  kind: "read",
  permission: "compute:attestation:read",
  summary: "Lists the root certificates the tenant trusts for TPM EK certificates: subject, SHA-256 fingerprint and validity.",
  input: listTpmTrustedRootsInput,
  handler: ({ db, input }) => listTpmTrustedRoots(db, input),
});

export const addTpmTrustStoreMethod = defineTenantMethod({
  ...tenant,
  name: "tpmTrustStore/add",
  phase: "v0.4",
  responses: { 200: tpmTrustedRootJson },
  kind: "mutation",
  permission: "compute:attestation:manage",
  summary:
    "Trusts a manufacturer root (`certificate`: one PEM CERTIFICATE of a CA) for EK certificates at the join; idempotent. Publishes compute.tpm-trust-store.changed.",
  input: tpmTrustedRootInput,
  handler: async ({ db, input, principal, now }) => (await addTpmTrustedRoot({ db, actor: principal.id, now, input })).root,
});

export const removeTpmTrustStoreMethod = defineTenantMethod({
  ...tenant,
  name: "tpmTrustStore/remove",
  phase: "v0.4",
  responses: { 200: removedResponse },
  kind: "mutation",
  permission: "compute:attestation:manage",
  summary: "Stops trusting a root (`certificate`, as added); idempotent. Publishes compute.tpm-trust-store.changed.",
  input: tpmTrustedRootInput,
  handler: ({ db, input, principal, now }) => removeTpmTrustedRoot({ db, actor: principal.id, now, input }),
});
