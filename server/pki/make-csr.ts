import { subtle, x509 } from "./x509";

// What a node daemon does before its join: a fresh key pair and a CSR for
// its hostname, signed by that key. Used by the demo seed and the simulator.

export const MACHINE_KEY_ALGORITHM = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;

export interface MachineKeyAndCsr {
  privateKeyPem: string;
  csrPem: string;
}

export async function makeKeyAndCsr(hostname: string): Promise<MachineKeyAndCsr> {
  const keys = (await subtle.generateKey(MACHINE_KEY_ALGORITHM, true, ["sign", "verify"])) as CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: [{ CN: [hostname] }],
    keys,
    signingAlgorithm: MACHINE_KEY_ALGORITHM,
    extensions: [new x509.SubjectAlternativeNameExtension([{ type: "dns", value: hostname }])],
  });
  const pkcs8 = await subtle.exportKey("pkcs8", keys.privateKey);
  return { privateKeyPem: x509.PemConverter.encode(pkcs8, "PRIVATE KEY"), csrPem: csr.toString("pem") };
}

/** A fresh endorsement key's public half (PEM SPKI), as a TPM no allow-list knows would present it. */
export async function makeEndorsementKeyPem(): Promise<string> {
  const keys = (await subtle.generateKey(MACHINE_KEY_ALGORITHM, true, ["sign", "verify"])) as CryptoKeyPair;
  return (await x509.PublicKey.create(keys.publicKey)).toString("pem");
}
