import { createHash } from "node:crypto";
import { NAME_ALGS, TPM_ALG, TPMA_OBJECT, hex16 } from "./tpm-constants";
import { TpmFormatError } from "./tpm-format-error";
import { readKdf, readScheme, readSymmetric, type HashScheme, type SymmetricDefinition } from "./tpm-parameters";
import { TpmReader } from "./tpm-reader";

export { encodeTpm2bPublic, AK_ATTRIBUTES } from "./encode-tpm2b-public";

// TPM2B_PUBLIC (Part 2 §12.2.5): what a machine sends as `tpm.akPublic`. We
// parse it whole, refusing anything we cannot read to its last byte, because
// its Name (a hash of these exact bytes) is what the credential is bound to.

interface TpmPublicBase {
  nameAlg: number;
  objectAttributes: number;
  authPolicy: Buffer;
  symmetric: SymmetricDefinition | null;
  scheme: HashScheme | null;
  /** The TPMT_PUBLIC bytes, without the TPM2B size: what the Name hashes. */
  publicArea: Buffer;
}
export interface RsaTpmPublic extends TpmPublicBase {
  type: "rsa";
  keyBits: number;
  /** 0 means the default, 65537. */
  exponent: number;
  modulus: Buffer;
}
export interface EccTpmPublic extends TpmPublicBase {
  type: "ecc";
  curveId: number;
  kdf: HashScheme | null;
  x: Buffer;
  y: Buffer;
}
export type TpmPublic = RsaTpmPublic | EccTpmPublic;

const WHAT = "TPM2B_PUBLIC";
/** Curve id → coordinate length in bytes (Part 2 §6.4, TPM_ECC_CURVE). */
const CURVE_BYTES = new Map([
  [0x0001, 24],
  [0x0002, 28],
  [0x0003, 32],
  [0x0004, 48],
  [0x0005, 66],
  [0x0010, 32],
  [0x0011, 80],
  [0x0020, 32],
]);
const RSA_KEY_BITS = [1024, 2048, 3072, 4096];

export function parseTpm2bPublic(bytes: Uint8Array): TpmPublic {
  const outer = new TpmReader(bytes, WHAT);
  const size = outer.u16("its size");
  if (size !== bytes.length - 2) {
    throw new TpmFormatError(`${WHAT} says it holds ${size} bytes but ${bytes.length - 2} follow its size`);
  }
  const reader = new TpmReader(bytes.subarray(2), WHAT);
  const type = reader.u16("type");
  if (type !== TPM_ALG.RSA && type !== TPM_ALG.ECC) {
    throw new TpmFormatError(`${WHAT}: key type ${hex16(type)} is not supported (only RSA and ECC keys)`);
  }
  const nameAlg = reader.u16("nameAlg");
  const hash = NAME_ALGS.get(nameAlg);
  if (!hash) {
    const why = nameAlg === TPM_ALG.SHA1 ? "SHA-1 is too weak" : `${hex16(nameAlg)} is unknown`;
    throw new TpmFormatError(`${WHAT}: name algorithm not supported (${why}; use SHA-256 or SHA-384)`);
  }
  const objectAttributes = reader.u32("objectAttributes");
  const authPolicy = reader.sized("authPolicy", 64);
  if (authPolicy.length !== 0 && authPolicy.length !== hash.size) {
    throw new TpmFormatError(`${WHAT}: authPolicy is ${authPolicy.length} bytes, but a ${hash.label} policy is ${hash.size}`);
  }
  const keyType = type === TPM_ALG.RSA ? "rsa" : "ecc";
  const symmetric = readSymmetric(reader, WHAT);
  const scheme = readScheme(reader, WHAT, keyType);
  const base = { nameAlg, objectAttributes, authPolicy, symmetric, scheme };
  const parsed = keyType === "rsa" ? readRsa(reader, base) : readEcc(reader, base);
  reader.expectEnd();
  return parsed;
}

type Base = Omit<TpmPublicBase, "publicArea">;

function readRsa(reader: TpmReader, base: Base): RsaTpmPublic {
  const keyBits = reader.u16("RSA keyBits");
  if (!RSA_KEY_BITS.includes(keyBits)) throw new TpmFormatError(`${WHAT}: RSA key size ${keyBits} bits is not supported`);
  const exponent = reader.u32("RSA exponent");
  const modulus = reader.sized("RSA modulus", 512);
  if (modulus.length !== keyBits / 8) {
    throw new TpmFormatError(`${WHAT}: RSA modulus is ${modulus.length} bytes, but a ${keyBits}-bit key needs ${keyBits / 8}`);
  }
  return { type: "rsa", ...base, keyBits, exponent, modulus, publicArea: reader.slice(0, reader.position) };
}

function readEcc(reader: TpmReader, base: Base): EccTpmPublic {
  const curveId = reader.u16("ECC curveID");
  const coordinateBytes = CURVE_BYTES.get(curveId);
  if (coordinateBytes === undefined) throw new TpmFormatError(`${WHAT}: unknown ECC curve ${hex16(curveId)}`);
  const kdf = readKdf(reader, WHAT);
  const x = reader.sized("ECC point x", coordinateBytes);
  const y = reader.sized("ECC point y", coordinateBytes);
  if (x.length === 0 || y.length === 0) throw new TpmFormatError(`${WHAT}: the ECC point is empty (a template, not a key)`);
  return { type: "ecc", ...base, curveId, kdf, x, y, publicArea: reader.slice(0, reader.position) };
}

/** The object's Name (Part 1 §16): nameAlg ‖ H_nameAlg(TPMT_PUBLIC). */
export function tpmName(pub: Pick<TpmPublic, "nameAlg" | "publicArea">): Buffer {
  const hash = NAME_ALGS.get(pub.nameAlg);
  if (!hash) throw new TpmFormatError(`name algorithm ${hex16(pub.nameAlg)} is not supported`);
  const alg = Buffer.alloc(2);
  alg.writeUInt16BE(pub.nameAlg);
  return Buffer.concat([alg, createHash(hash.nodeHash).update(pub.publicArea).digest()]);
}

const REQUIRED: ReadonlyArray<[keyof typeof TPMA_OBJECT, string]> = [
  ["fixedTPM", "lacks fixedTPM (it could be duplicated to another TPM)"],
  ["fixedParent", "lacks fixedParent (it could be moved to another parent)"],
  ["sensitiveDataOrigin", "lacks sensitiveDataOrigin (its private key was made outside the TPM)"],
  ["restricted", "is not restricted (it would sign data that only looks like TPM attestations)"],
  ["sign", "is not a signing key"],
];

/** Why this key is not an attestation key that cannot leave its TPM; empty when it is one. */
export function attestationKeyProblems(pub: Pick<TpmPublic, "objectAttributes">): string[] {
  const problems = REQUIRED.filter(([bit]) => (pub.objectAttributes & TPMA_OBJECT[bit]) === 0).map(([, problem]) => problem);
  if (pub.objectAttributes & TPMA_OBJECT.decrypt) problems.push("is a decryption key");
  return problems;
}
