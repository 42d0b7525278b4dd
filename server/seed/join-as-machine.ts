import "server-only";
import type { Db } from "../db/client";
import type { JoinCredential } from "../nodes/join-credential";
import { joinNode } from "../nodes/join-node";
import type { JoinNodeInput } from "@/lib/validations/node-join";
import { SoftwareTpm } from "@/lib/tpm/software-tpm";
import { DEMO_TPM_EK_PRIVATE_KEY_PEM } from "./demo-tpm-ek";

// The demo machines join as a daemon does, through the real join (SPEC D4),
// a TPM one in two steps (F1): the challenge, then the secret its TPM — here
// the software TPM of F5 — recovered, with a quote of its PCRs when the
// challenge asks for one (SPEC I2).

export type DemoTpm = "allowed" | "unknown";

/** The demo EK (allow-listed), or a fresh RSA-2048 EK no allow-list knows. */
export function demoSoftwareTpm(kind: DemoTpm): SoftwareTpm {
  return kind === "allowed" ? new SoftwareTpm({ ekPrivateKeyPem: DEMO_TPM_EK_PRIVATE_KEY_PEM }) : SoftwareTpm.withFreshEk();
}

type Body = Omit<JoinNodeInput, "tpm">;
// zod's output types a base64 field as Buffer<ArrayBuffer>; node:crypto gives Buffer<ArrayBufferLike>.
const bytes = (buffer: Buffer) => Buffer.from(buffer);

/** The join's outcome after the challenge, if any, was answered; the body without the activation, for later retries. */
export async function joinAsMachine(input: { db: Db; credential: JoinCredential; body: Body; tpm?: SoftwareTpm; now: Date }) {
  const { db, credential, tpm, now } = input;
  const body: JoinNodeInput = {
    ...input.body,
    tpm: tpm
      ? {
          ekPublicKey: tpm.ekPublicKeyPem,
          ekCertificate: undefined,
          ekCertificateChain: undefined,
          akPublic: bytes(tpm.akPublic),
          activation: undefined,
          quote: undefined,
        }
      : undefined,
  };
  const first = await joinNode({ db, credential, body, now });
  if (first.status !== "challenge" || !tpm) return { outcome: first, body };
  const secret = tpm.activateCredential(Buffer.from(first.credentialBlob, "base64"), Buffer.from(first.encryptedSecret, "base64"));
  const activation = { challengeId: first.challengeId, secret: bytes(secret) };
  const quote =
    first.nonce && first.pcrSelection
      ? tpm.quote({ nonce: Buffer.from(first.nonce, "base64"), pcrSelection: first.pcrSelection })
      : undefined;
  const tpmBody = {
    ...body.tpm!,
    activation,
    quote: quote && { ...quote, attest: bytes(quote.attest), signature: bytes(quote.signature) },
  };
  const outcome = await joinNode({ db, credential, body: { ...body, tpm: tpmBody }, now });
  return { outcome, body };
}
