// Keys of the changes to the attestors' knowledge (SPEC E3). The discovery and
// TPM allow-list pages are server-rendered and render again from the server
// after a change (router.refresh), so no query of them is cached to key; a
// mutation's key names the change (for useIsMutating and the devtools).
export const attestationKeys = {
  all: ["attestation"] as const,
  change: () => [...attestationKeys.all, "change"] as const,
  discoveryPreview: (tenantId: string, siteId: string) => [...attestationKeys.all, tenantId, siteId, "discovery-preview"] as const,
  discoveryImport: (tenantId: string, siteId: string) => [...attestationKeys.all, tenantId, siteId, "discovery-import"] as const,
};
