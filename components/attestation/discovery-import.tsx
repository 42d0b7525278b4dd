"use client";
import { useState } from "react";
import { toast } from "@/components/ui/toast";
import { useDiscoveryImportMutation } from "@/data/attestation/discovery-import-mutation";
import { useDiscoveryPreviewMutation, type DiscoveryImportPlan } from "@/data/attestation/discovery-preview-mutation";
import styles from "./attestation.module.css";

/**
 * Imports a vendor's manifest (CSV or JSON, as `npm run admin -- discovery
 * import` reads it) into the site's inventory: every line checked in the
 * browser, then a preview of what would change (the server's own upsert,
 * rolled back), then the import, all or nothing.
 */
export function DiscoveryImport({ tenantId, siteId }: { tenantId: string; siteId: string }) {
  const [plan, setPlan] = useState<DiscoveryImportPlan | null>(null);
  const preview = useDiscoveryPreviewMutation({ tenantId, siteId }, { onSuccess: setPlan });
  const apply = useDiscoveryImportMutation(
    { tenantId, siteId },
    {
      onSuccess: (counts) => {
        toast.success(`Imported: ${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged`);
        setPlan(null);
      },
    },
  );
  const error = preview.error ?? apply.error;

  return (
    <section className={`card ${styles.panel}`} aria-labelledby="import-title" data-testid="discovery-import">
      <h2 id="import-title">Import a manifest</h2>
      <p className="muted">
        CSV with the header <code>systemUuid,macAddresses,assignedPool</code> (MACs separated by spaces or semicolons), or JSON.
      </p>
      <div className="field">
        <label htmlFor="manifest-file">Manifest file</label>
        <input
          id="manifest-file"
          type="file"
          accept=".csv,.json,text/csv,application/json"
          disabled={preview.isPending || apply.isPending}
          onChange={(event) => {
            const file = event.target.files?.[0];
            setPlan(null);
            if (file) preview.mutate(file);
          }}
        />
      </div>
      {preview.isPending ? <p aria-live="polite">Checking the manifest…</p> : null}
      {error ? (
        <div role="alert" className="alert">
          <strong>{error.code}</strong>: {error.message}
        </div>
      ) : null}
      {plan && !plan.ok ? (
        <div role="alert" className="alert" data-testid="import-errors">
          <strong>Nothing can be imported:</strong>
          <ul>
            {plan.errors.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {plan?.ok ? (
        <div data-testid="import-preview" aria-live="polite">
          <p>
            This import would create <strong>{plan.preview.created}</strong>, update <strong>{plan.preview.updated}</strong> and leave{" "}
            <strong>{plan.preview.unchanged}</strong> unchanged, of {plan.machines.length} machines.
          </p>
          <div className="inline-actions">
            <button type="button" className="button button-primary" disabled={apply.isPending} onClick={() => apply.mutate(plan.machines)}>
              {apply.isPending ? "Importing…" : "Import"}
            </button>
            <button type="button" className="button" disabled={apply.isPending} onClick={() => setPlan(null)}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
