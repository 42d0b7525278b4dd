"use client";
import { useState } from "react";
import { addTpmAllowedKey } from "@/lib/api-client/attestation";
import { addTpmAllowedKeyInput } from "@/lib/validations/attestation";
import { parseInput } from "@/lib/validations/parse-input";
import styles from "./attestation.module.css";
import { useAttestationChange } from "./use-attestation-change";

/**
 * Allows an endorsement key by its PEM (a file, hashed by the server as the
 * join's tpm attestor hashes it) or by its SHA-256, with a note. Checked with
 * the method's own schema before anything is sent.
 */
export function TpmAllowForm({ tenantId }: { tenantId: string }) {
  const [pem, setPem] = useState<string | null>(null);
  const [hash, setHash] = useState("");
  const [note, setNote] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const add = useAttestationChange(addTpmAllowedKey, (key) => `Allowed ${key.ekSha256.slice(0, 16)}… in ${tenantId}`);

  return (
    <form
      className={`card ${styles.panel}`}
      aria-labelledby="allow-title"
      data-testid="tpm-allow-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const input = { tenantId, ekPublicKey: pem ?? undefined, ekSha256: pem ? undefined : hash || undefined, note };
        const parsed = parseInput(addTpmAllowedKeyInput, input);
        if (!parsed.ok) {
          setProblem(parsed.violations.map((violation) => `${violation.field}: ${violation.message}`).join("; "));
          return;
        }
        setProblem(null);
        add.mutate(input, {
          onSuccess: () => {
            setHash("");
            setNote("");
            setPem(null);
            form.reset();
          },
        });
      }}
    >
      <h2 id="allow-title">Allow an endorsement key</h2>
      <div className="field">
        <label htmlFor="ek-pem">EK public key (PEM file)</label>
        <input
          id="ek-pem"
          type="file"
          accept=".pem,.pub,.txt"
          onChange={async (event) => setPem((await event.target.files?.[0]?.text()) ?? null)}
        />
      </div>
      <div className="field">
        <label htmlFor="ek-sha256">or its SHA-256 (of the DER SubjectPublicKeyInfo)</label>
        <input
          id="ek-sha256"
          value={hash}
          onChange={(event) => setHash(event.target.value)}
          disabled={pem !== null}
          spellCheck={false}
          className="mono"
        />
      </div>
      <div className="field">
        <label htmlFor="ek-note">Note</label>
        <input id="ek-note" value={note} maxLength={256} onChange={(event) => setNote(event.target.value)} />
      </div>
      {(problem ?? add.error) ? (
        <p role="alert" className="field-error">
          {problem ?? `${add.error!.code}: ${add.error!.message}`}
        </p>
      ) : null}
      <button type="submit" className="button button-primary" disabled={add.isPending}>
        {add.isPending ? "Allowing…" : "Allow"}
      </button>
    </form>
  );
}
