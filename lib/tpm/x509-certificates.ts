import { webcrypto } from "node:crypto";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { PemFormatError, readPem } from "../pem/read-pem";

// X.509 certificates as pkijs reads them (RFC 5280 path validation is
// pkijs's: docs/hardware-trust.md says why that library), read strictly from
// PEM and named the way a person reads them on the request page.

/** pkijs's crypto, on Node's WebCrypto; passed to every call, never set globally. */
export const pkixCrypto = new pkijs.CryptoEngine({ name: "node", crypto: webcrypto as unknown as Crypto });

/** One PEM CERTIFICATE block → certificate; a PemFormatError names what is wrong (the caller names the field). */
export function readCertificate(pem: string): pkijs.Certificate {
  return certificateFromDer(readPem(pem, "CERTIFICATE"));
}

/** Zero or more PEM CERTIFICATE blocks, one after another (a chain or a bundle of roots). */
export function readCertificates(pemText: string): pkijs.Certificate[] {
  const blocks = pemText.match(/-----BEGIN [^-]*-----[^-]*-----END [^-]*-----/g) ?? [];
  const rest = pemText.replace(/-----BEGIN [^-]*-----[^-]*-----END [^-]*-----/g, "");
  if (rest.trim() !== "") throw new PemFormatError("holds text outside its PEM CERTIFICATE blocks");
  return blocks.map((block, index) => {
    try {
      return readCertificate(block);
    } catch (error) {
      if (error instanceof PemFormatError) throw new PemFormatError(`block ${index + 1} ${error.message}`);
      throw error;
    }
  });
}

export function certificateFromDer(der: Uint8Array): pkijs.Certificate {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1) throw new PemFormatError(`is not DER: ${parsed.result.error}`);
  if (parsed.offset !== der.length) throw new PemFormatError("is a certificate followed by unexpected bytes");
  try {
    return new pkijs.Certificate({ schema: parsed.result });
  } catch {
    throw new PemFormatError("is not an X.509 certificate");
  }
}

const ATTRIBUTE_NAMES = new Map([
  ["2.5.4.3", "CN"],
  ["2.5.4.5", "serialNumber"],
  ["2.5.4.6", "C"],
  ["2.5.4.7", "L"],
  ["2.5.4.8", "ST"],
  ["2.5.4.10", "O"],
  ["2.5.4.11", "OU"],
  // TCG EK profile: the TPM's manufacturer, model and firmware version.
  ["2.23.133.2.1", "tpmManufacturer"],
  ["2.23.133.2.2", "tpmModel"],
  ["2.23.133.2.3", "tpmVersion"],
]);

/** "CN=swtpm-localca, O=…" in the certificate's order; "" for an empty name (allowed in the TCG EK profile). */
export function formatName(name: pkijs.RelativeDistinguishedNames): string {
  return name.typesAndValues
    .map((attribute) => {
      const value = (attribute.value as { valueBlock?: { value?: unknown } }).valueBlock?.value;
      const text = typeof value === "string" ? value : Buffer.from(attribute.value.toBER()).toString("hex");
      return `${ATTRIBUTE_NAMES.get(attribute.type) ?? attribute.type}=${text}`;
    })
    .join(", ");
}

/** The serial number as lowercase hex, as `openssl x509 -serial` prints it (without its leading zero byte). */
export function serialHex(certificate: pkijs.Certificate): string {
  const hex = Buffer.from(certificate.serialNumber.valueBlock.valueHexView).toString("hex");
  return hex.replace(/^(00)+(?=.)/, "") || "00";
}

/** Who issued it, and its serial: what a request shows about an EK certificate whether or not it verified. */
export function describeCertificate(certificate: pkijs.Certificate): { subject: string; issuer: string; serial: string } {
  return { subject: formatName(certificate.subject), issuer: formatName(certificate.issuer), serial: serialHex(certificate) };
}
