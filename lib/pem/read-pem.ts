// The one reader of PEM text (RFC 7468, strictly) for everything a caller
// sends us: the join's CSR and endorsement key, the allow-list's key and the
// admin CLI's file. Lenient readers disagree on which of several blocks they
// take (SPEC G1: one parser hashed the first block, another encrypted to the
// first it could use), so the text must be exactly one block of the expected
// label, with nothing but whitespace around it, and its base64 in its one
// canonical spelling. What the DER holds is the caller's to check.

export class PemFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PemFormatError";
  }
}

// Whitespace the PEM may carry around and inside the base64: ASCII only.
const BLOCK = /^[ \t\r\n]*-----BEGIN ([A-Za-z0-9 ]+)-----([A-Za-z0-9+/= \t\r\n]*)-----END \1-----[ \t\r\n]*$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The DER bytes of the one PEM block labelled `label` that `text` must be. */
export function readPem(text: string, label: string): Buffer {
  const blocks = text.split("-----BEGIN ").length - 1;
  if (blocks !== 1)
    throw new PemFormatError(blocks === 0 ? `is not a PEM ${label}` : `holds ${blocks} PEM blocks; send exactly one ${label}`);
  const match = BLOCK.exec(text);
  if (!match) throw new PemFormatError(`must be one PEM ${label} block with nothing but whitespace around it`);
  if (match[1] !== label) throw new PemFormatError(`is a PEM ${match[1]}; send a PEM ${label}`);
  const base64 = match[2]!.replace(/[ \t\r\n]/g, "");
  const der = Buffer.from(base64, "base64");
  // Node's decoder skips what it cannot read; re-encoding catches it (and stray padding bits).
  if (!BASE64.test(base64) || base64.length % 4 !== 0 || der.toString("base64") !== base64)
    throw new PemFormatError(`is a PEM ${label} whose body is not base64`);
  return der;
}
