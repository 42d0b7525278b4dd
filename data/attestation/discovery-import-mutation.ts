"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import type { ApiClientError } from "@/lib/api-client/api-client-error";
import { upsertDiscoveredMachines } from "@/lib/api-client/attestation";
import type { UpsertDiscoveryResponse } from "@/lib/api/responses/attestation";
import type { DiscoveredMachineInput } from "@/lib/validations/attestation";
import { attestationKeys } from "./keys";

/** Imports a previewed manifest's machines into the site's inventory, all or nothing; the page re-renders either way. */
export function useDiscoveryImportMutation(
  site: { tenantId: string; siteId: string },
  options: { onSuccess?: (counts: UpsertDiscoveryResponse) => void } = {},
) {
  const { tenantId, siteId } = site;
  const router = useRouter();
  return useMutation<UpsertDiscoveryResponse, ApiClientError, DiscoveredMachineInput[]>({
    mutationKey: attestationKeys.discoveryImport(tenantId, siteId),
    mutationFn: (machines) => upsertDiscoveredMachines({ tenantId, siteId, machines }),
    onSuccess: (counts) => options.onSuccess?.(counts),
    onSettled: () => router.refresh(),
  });
}
