"use client";
import { removeTpmAllowedKey } from "@/lib/api-client/attestation";
import { useAttestationChange } from "./use-attestation-change";

/** Takes one key off the allow-list: that TPM's next join is deferred again. */
export function TpmRemoveButton({ tenantId, ekSha256 }: { tenantId: string; ekSha256: string }) {
  const remove = useAttestationChange(
    () => removeTpmAllowedKey({ tenantId, ekSha256 }),
    () => `Removed ${ekSha256.slice(0, 16)}… from the allow-list`,
  );
  return (
    <button
      type="button"
      className="button"
      disabled={remove.isPending}
      onClick={() => remove.mutate(undefined)}
      aria-label={`Remove ${ekSha256}`}
    >
      Remove
    </button>
  );
}
