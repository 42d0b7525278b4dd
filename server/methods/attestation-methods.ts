import "server-only";
import { tpmAllowedKeyJson } from "@/lib/attestation/attestation-json";
import { listDiscoveryResponse, listTpmAllowListResponse, removedResponse, upsertDiscoveryResponse } from "@/lib/api/responses/attestation";
import {
  addTpmAllowedKeyInput,
  listDiscoveredMachinesInput,
  listTpmAllowedKeysInput,
  removeDiscoveredMachinesInput,
  removeTpmAllowedKeyInput,
  upsertDiscoveredMachinesInput,
} from "@/lib/validations/attestation";
import { listDiscoveredMachines } from "../attestation/discovery/list-discovered-machines";
import { removeDiscoveredMachines } from "../attestation/discovery/remove-discovered-machines";
import { addTpmAllowedKey, listTpmAllowedKeys, removeTpmAllowedKey } from "../attestation/allow-list/tpm-allow-list";
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
