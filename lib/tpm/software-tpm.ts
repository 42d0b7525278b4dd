import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { activateCredential } from "./activate-credential";
import { ekKind } from "./credential-seed";
import { encodeTpm2bPublic } from "./encode-tpm2b-public";
import { parseTpm2bPublic, tpmName } from "./tpm2b-public";

/** What a simulator saves to come back to the same machine later. */
export interface SoftwareTpmState {
  ekPrivateKeyPem: string;
  akPrivateKeyPem: string;
}

/**
 * A TPM played in software by whoever holds the EK's private key (SPEC F5:
 * the demo seed and the simulator, with the published demo EK). It answers a
 * credential challenge as a real TPM would, including refusing a blob made
 * for another AK. It proves nothing about hardware: only the demo EK, whose
 * private half is public, should ever be used with it.
 */
export class SoftwareTpm {
  readonly ekPublicKeyPem: string;
  /** The AK's TPM2B_PUBLIC, as a join's `tpm.akPublic` carries it (base64). */
  readonly akPublic: Buffer;
  readonly akName: Buffer;
  private readonly ekPrivateKey: KeyObject;
  private readonly akPrivateKey: KeyObject;

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
}
