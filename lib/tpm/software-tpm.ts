import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { activateCredential } from "./activate-credential";
import { ekKind } from "./credential-seed";
import { encodeTpm2bPublic } from "./encode-tpm2b-public";
import { signQuote } from "./sign-quote";
import { TpmFormatError } from "./tpm-format-error";
import { parseTpm2bPublic, tpmName } from "./tpm2b-public";

/** What a simulator saves to come back to the same machine later. */
export interface SoftwareTpmState {
  ekPrivateKeyPem: string;
  akPrivateKeyPem: string;
}

/** What a quote answers: `tpm.quote`'s three parts (attest and signature still bytes). */
export interface SoftwareQuote {
  attest: Buffer;
  signature: Buffer;
  pcrs: Record<string, string>;
}

/** A quote as `tpm.quote` (the join) and `nodes/attest`'s `quote` carry it: attest and signature in base64. */
export function quoteOnWire(quote: SoftwareQuote): { attest: string; signature: string; pcrs: Record<string, string> } {
  return { attest: quote.attest.toString("base64"), signature: quote.signature.toString("base64"), pcrs: quote.pcrs };
}

const PCR_COUNT = 24;

/**
 * A TPM played in software by whoever holds the EK's private key (SPEC F5:
 * the demo seed and the simulator, with the published demo EK). It answers a
 * credential challenge as a real TPM would, including refusing a blob made
 * for another AK, and quotes its SHA-256 PCRs (which start at zero, as after
 * a reset, and change only by extension). It proves nothing about hardware: only the demo EK, whose
 * private half is public, should ever be used with it.
 */
export class SoftwareTpm {
  readonly ekPublicKeyPem: string;
  /** The AK's TPM2B_PUBLIC, as a join's `tpm.akPublic` carries it (base64). */
  readonly akPublic: Buffer;
  readonly akName: Buffer;
  private readonly ekPrivateKey: KeyObject;
  private readonly akPrivateKey: KeyObject;
  private readonly bank: Buffer[] = Array.from({ length: PCR_COUNT }, () => Buffer.alloc(32));
  private readonly startedAt = Date.now();

  /** Makes a fresh ECC P-256 AK unless the state already has one. */
  constructor({ ekPrivateKeyPem, akPrivateKeyPem }: { ekPrivateKeyPem: string; akPrivateKeyPem?: string }) {
    this.ekPrivateKey = createPrivateKey(ekPrivateKeyPem);
    ekKind(this.ekPrivateKey); // refuse an EK no default template makes, before handing out its public half
    this.ekPublicKeyPem = createPublicKey(this.ekPrivateKey).export({ type: "spki", format: "pem" }).toString();
    this.akPrivateKey = akPrivateKeyPem
      ? createPrivateKey(akPrivateKeyPem)
      : generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey;
    this.akPublic = encodeTpm2bPublic({ publicKey: createPublicKey(this.akPrivateKey) });
    this.akName = tpmName(parseTpm2bPublic(this.akPublic));
  }

  /** A TPM whose fresh RSA-2048 EK (the TCG default template's kind) no allow-list knows. */
  static withFreshEk(): SoftwareTpm {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    return new SoftwareTpm({ ekPrivateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString() });
  }

  get state(): SoftwareTpmState {
    return {
      ekPrivateKeyPem: this.ekPrivateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      akPrivateKeyPem: this.akPrivateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    };
  }

  /** TPM2_ActivateCredential with this EK and AK; both inputs with their 2-byte size prefixes. */
  activateCredential(credentialBlob: Buffer, encryptedSecret: Buffer): Buffer {
    return activateCredential({ ekPrivateKey: this.ekPrivateKey, objectName: this.akName, credentialBlob, encryptedSecret });
  }

  /** TPM2_PCR_Extend on the SHA-256 bank: the PCR becomes SHA-256(PCR ‖ digest). */
  extendPcr(index: number, digest: Buffer): void {
    if (!Number.isInteger(index) || index < 0 || index >= PCR_COUNT)
      throw new TpmFormatError(`PCR ${index} is not one of a TPM's ${PCR_COUNT} PCRs`);
    if (digest.length !== 32) throw new TpmFormatError(`a SHA-256 extension is 32 bytes, not ${digest.length}`);
    this.bank[index] = createHash("sha256").update(this.bank[index]!).update(digest).digest();
  }

  /** TPM2_Quote by the AK over those SHA-256 PCRs with the nonce as qualifying data, as `tpm2_quote -q` makes it. */
  quote({ nonce, pcrSelection }: { nonce: Buffer; pcrSelection: readonly number[] }): SoftwareQuote {
    const indices = [...new Set(pcrSelection)].sort((a, b) => a - b);
    if (indices.some((index) => !Number.isInteger(index) || index < 0 || index >= PCR_COUNT))
      throw new TpmFormatError(`a PCR selection is of indices 0 to ${PCR_COUNT - 1}`);
    const clock = BigInt(Date.now() - this.startedAt);
    const signed = signQuote({ akPrivateKey: this.akPrivateKey, akName: this.akName, nonce, indices, bank: this.bank, clock });
    return { ...signed, pcrs: Object.fromEntries(indices.map((index) => [String(index), this.bank[index]!.toString("hex")])) };
  }
}
