"use client";
import { useMutation } from "@tanstack/react-query";
import { parseMachineManifest } from "@/lib/attestation/machine-manifest";
import type { ApiClientError } from "@/lib/api-client/api-client-error";
import { upsertDiscoveredMachines } from "@/lib/api-client/attestation";
import type { UpsertDiscoveryResponse } from "@/lib/api/responses/attestation";
import { MAX_MACHINES_PER_CHANGE, type DiscoveredMachineInput } from "@/lib/validations/attestation";
import { attestationKeys } from "./keys";

/** A manifest checked line by line, with what importing it would change; or why it cannot be imported. */
export type DiscoveryImportPlan =
  { ok: true; machines: DiscoveredMachineInput[]; preview: UpsertDiscoveryResponse } | { ok: false; errors: string[] };

/**
 * Reads a vendor's manifest file (CSV or JSON, as `npm run admin -- discovery
 * import` reads it), checks every line in the browser, then asks the server
 * what importing it would change (its own upsert, rolled back). Writes nothing.
 */
export function useDiscoveryPreviewMutation(
  site: { tenantId: string; siteId: string },
  options: { onSuccess?: (plan: DiscoveryImportPlan) => void } = {},
) {
  const { tenantId, siteId } = site;
  return useMutation<DiscoveryImportPlan, ApiClientError, File>({
    mutationKey: attestationKeys.discoveryPreview(tenantId, siteId),
    mutationFn: async (file) => {
      const manifest = parseMachineManifest(await file.text(), file.name);
      if (!manifest.ok) return manifest;
      if (manifest.machines.length > MAX_MACHINES_PER_CHANGE) {
        return {
          ok: false,
          errors: [
            `${manifest.machines.length} machines: the console imports up to ${MAX_MACHINES_PER_CHANGE} at once; use npm run admin -- discovery import for larger manifests`,
          ],
        };
      }
      const counts = await upsertDiscoveredMachines({ tenantId, siteId, machines: manifest.machines, dryRun: true });
      return { ok: true, machines: manifest.machines, preview: counts };
    },
    onSuccess: (plan) => options.onSuccess?.(plan),
  });
}
