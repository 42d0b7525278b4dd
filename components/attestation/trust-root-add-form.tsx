"use client";
import { useState } from "react";
import { addTpmTrustedRoot } from "@/lib/api-client/attestation";
import styles from "./attestation.module.css";
import { useAttestationChange } from "./use-attestation-change";

/**
 * SPEC I1: trusts one manufacturer root certificate, pasted or read from a
 * file (one PEM CERTIFICATE block; the server reads it once and says what is
 * wrong with it, naming `certificate`).
 */
export function TrustRootAddForm({ tenantId }: { tenantId: string }) {
  const [pem, setPem] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const add = useAttestationChange(addTpmTrustedRoot, (root) => `Trusted ${root.subject || "(empty subject)"} in ${tenantId}`);

  return (
    <form
      className={`card ${styles.panel}`}
      aria-labelledby="trust-title"
      data-testid="trust-root-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        if (!pem.trim().startsWith("-----BEGIN CERTIFICATE-----")) {
          setProblem("certificate: paste or choose one PEM certificate (-----BEGIN CERTIFICATE-----)");
          return;
        }
        setProblem(null);
        add.mutate(
          { tenantId, certificate: pem },
          {
            onSuccess: () => {
              setPem("");
              form.reset();
            },
          },
        );
      }}
    >
      <h2 id="trust-title">Trust a root certificate</h2>
      <div className="field">
        <label htmlFor="root-file">Certificate (PEM file)</label>
        <input
          id="root-file"
          type="file"
          accept=".pem,.crt,.cer,.txt"
          onChange={async (event) => setPem((await event.target.files?.[0]?.text()) ?? "")}
        />
      </div>
      <div className="field">
        <label htmlFor="root-pem">or paste it</label>
        <textarea
          id="root-pem"
          className={`mono ${styles.pem}`}
          rows={6}
          value={pem}
          spellCheck={false}
          onChange={(event) => setPem(event.target.value)}
          placeholder="-----BEGIN CERTIFICATE-----"
        />
      </div>
      {(problem ?? add.error) ? (
        <p role="alert" className="field-error">
          {problem ?? `${add.error!.code}: ${add.error!.message}`}
        </p>
      ) : null}
      <button type="submit" className="button button-primary" disabled={add.isPending}>
        {add.isPending ? "Trusting…" : "Trust"}
      </button>
    </form>
  );
}
