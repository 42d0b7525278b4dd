"use client";
import { removeDiscoveredMachines, upsertDiscoveredMachines } from "@/lib/api-client/attestation";
import type { DiscoveredMachineJson } from "@/lib/attestation/attestation-json";
import { useAttestationChange } from "./use-attestation-change";

/** A tenant-admin's controls on one discovered machine: the pool it is assigned to, and forgetting it. */
export function DiscoveryRowActions(props: {
  tenantId: string;
  siteId: string;
  machine: DiscoveredMachineJson;
  pools: { id: string; name: string }[];
}) {
  const { tenantId, siteId, machine } = props;
  const assign = useAttestationChange(
    (assignedPoolId: string | null) =>
      upsertDiscoveredMachines({
        tenantId,
        siteId,
        machines: [{ systemUuid: machine.systemUuid, macAddresses: machine.macAddresses, assignedPoolId }],
      }),
    (_result, poolId) => (poolId ? `${machine.systemUuid} is assigned to ${poolId}` : `${machine.systemUuid} is assigned to no pool`),
  );
  const remove = useAttestationChange(
    () => removeDiscoveredMachines({ tenantId, siteId, systemUuids: [machine.systemUuid] }),
    () => `${machine.systemUuid} is forgotten: its next join is deferred again`,
  );
  const busy = assign.isPending || remove.isPending;
  return (
    <div className="inline-actions">
      <label className="visually-hidden" htmlFor={`pool-${machine.systemUuid}`}>
        Pool for {machine.systemUuid}
      </label>
      <select
        id={`pool-${machine.systemUuid}`}
        value={machine.assignedPoolId ?? ""}
        disabled={busy}
        onChange={(event) => assign.mutate(event.target.value || null)}
      >
        <option value="">no pool (known only)</option>
        {props.pools.map((pool) => (
          <option key={pool.id} value={pool.id}>
            {pool.name} ({pool.id})
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button"
        disabled={busy}
        onClick={() => remove.mutate(undefined)}
        aria-label={`Remove ${machine.systemUuid}`}
      >
        Remove
      </button>
    </div>
  );
}
